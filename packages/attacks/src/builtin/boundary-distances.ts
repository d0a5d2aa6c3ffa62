import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, ShapeMismatchError, deriveSeed, describeValue, option, optionsSchema, seededRandom } from '@mia/core';
import type { LabelOracle } from '../index';
import { boundarySearch, type BoundarySearchResult } from './boundary-search';

/** The params of {@link boundaryDistances}, validated whole by {@link boundaryDistanceOptionsSchema} before any query. */
export interface BoundaryDistanceParams {
  /** Label queries per record, the clean query included; the search never sends more. @default 1000 */
  readonly budget?: number;
  /** HopSkipJump's B₀: directions of the first gradient estimate (iteration t uses B₀·√t). @default 100 */
  readonly initEvals?: number;
  /** Cap of the directions of one gradient estimate. @default 10000 */
  readonly maxEvals?: number;
  /** Uniform random draws tried to find a first point of another class. @default 100 */
  readonly initTrials?: number;
  /** Smallest input value (the search clips every query to [clipMin, clipMax]). @default 0 */
  readonly clipMin?: number;
  /** Largest input value. @default 1 */
  readonly clipMax?: number;
}

/** Options of {@link boundaryDistances}: its params, the seed and how queries are batched (which never changes a result). */
export interface BoundaryDistanceOptions extends BoundaryDistanceParams {
  /** Seed of the random draws; record i uses `deriveSeed(seed, 'boundary', i)`. @default 0 */
  readonly seed?: number;
  /** Records searched at once (their queries share oracle calls). @default 16 */
  readonly parallel?: number;
  /** Most rows per oracle call. @default 256 */
  readonly batchSize?: number;
}

/** The schema of {@link BoundaryDistanceParams}: strict, with the defaults, and the JSON Schema of a config's `params`. */
export const boundaryDistanceOptionsSchema = optionsSchema({
  budget: option.integer({ min: 1, default: 1000, description: 'label queries per record (the clean query included)' }),
  initEvals: option.integer({ min: 1, default: 100, description: "HopSkipJump's B₀, directions of the first gradient estimate" }),
  maxEvals: option.integer({ min: 1, default: 10000, description: 'cap of the directions of one gradient estimate' }),
  initTrials: option.integer({ min: 1, default: 100, description: 'uniform random draws tried to find a first point of another class' }),
  clipMin: option.number({ default: 0, description: 'smallest input value' }),
  clipMax: option.number({ default: 1, description: 'largest input value' }),
});

/** What {@link boundaryDistances} measured, per record. */
export interface BoundaryDistances {
  /** L2 distance (input units) to the closest point of another class found; 0 when misclassified. */
  readonly distance: Float64Array;
  /** Label queries sent for the record (≤ budget). */
  readonly queries: Int32Array;
  /** 1 when a point of another class was found; 0 when none was within the budget (distance = the farthest random draw tried). */
  readonly resolved: Uint8Array;
}

/**
 * Estimates each record's distance to the model's decision boundary from label queries alone, under
 * a per-record query budget: HopSkipJump's L2 untargeted search (see `boundarySearch`), records
 * searched in parallel with their queries batched into shared oracle calls. The result of a record
 * depends only on it, its label, the params and the seed (not on `parallel` or `batchSize`).
 * Put the distances into the signals as `boundaryDistance` for {@link boundaryDistanceAttack}.
 *
 * @param oracle - Label-only access to the model (`labelOracle(model)`, or an endpoint's).
 * @param data - The records `x` `[n, ...]` (the caller keeps ownership) and their true labels `y`.
 * @param options - {@link BoundaryDistanceOptions}; validated whole before any query.
 * @returns {@link BoundaryDistances}. Leaves no tensor behind.
 * @throws InvalidArgumentError / ShapeMismatchError on bad options, data or oracle answers.
 * @see Choquette-Choo, Tramèr, Carlini & Papernot, "Label-Only Membership Inference Attacks", ICML 2021,
 *   §4 (boundary distance, HopSkipJump); Chen et al., "HopSkipJumpAttack", S&P 2020.
 */
export async function boundaryDistances(
  oracle: LabelOracle,
  data: { readonly x: tf.Tensor; readonly y: ArrayLike<number> },
  options: BoundaryDistanceOptions = {},
): Promise<BoundaryDistances> {
  const fn = 'boundaryDistances';
  const { seed = 0, parallel = 16, batchSize = 256, ...params } = options;
  const o = boundaryDistanceOptionsSchema.parse(params, fn);
  for (const [name, value] of [
    ['parallel', parallel],
    ['batchSize', batchSize],
  ] as const)
    if (!(Number.isInteger(value) && value > 0)) throw new InvalidArgumentError(`${fn}: ${name} must be a positive integer, got ${describeValue(value)}`);
  if (!Number.isInteger(seed)) throw new InvalidArgumentError(`${fn}: seed must be an integer, got ${describeValue(seed)}`);
  if (!(o.clipMin < o.clipMax)) throw new InvalidArgumentError(`${fn}: clipMin must be below clipMax (${o.clipMax}), got ${o.clipMin}`);
  if (typeof oracle !== 'function') throw new InvalidArgumentError(`${fn}: oracle must be a function x → predicted labels, got ${describeValue(oracle)}`);
  const x = data?.x;
  if (typeof x?.dataSync !== 'function' || x.rank < 2)
    throw new InvalidArgumentError(`${fn}: data.x must be a tensor [n, ...], got ${describeValue(x?.shape ?? x)}`);
  const n = x.shape[0]!;
  const shape = x.shape.slice(1);
  const d = shape.reduce((p, v) => p * v, 1);
  const labels = data.y;
  if (labels === null || typeof labels !== 'object' || labels.length !== n)
    throw new ShapeMismatchError(`${fn}: data.y must hold ${n} labels (one per row of x), got ${describeValue(labels)}`);
  for (let i = 0; i < n; i++)
    if (!(Number.isInteger(labels[i]) && labels[i]! >= 0))
      throw new InvalidArgumentError(`${fn}: data.y[${i}] must be a non-negative integer label, got ${describeValue(labels[i])}`);
  const values = x.dataSync();
  const out: BoundaryDistances = { distance: new Float64Array(n), queries: new Int32Array(n), resolved: new Uint8Array(n) };
  type Search = { index: number; search: Generator<Float32Array[], BoundarySearchResult, Int32Array>; rows: Float32Array[] };
  const finish = (index: number, result: BoundarySearchResult) => {
    out.distance[index] = result.distance;
    out.resolved[index] = result.resolved ? 1 : 0;
  };
  const advance = (s: Search, answer?: Int32Array): boolean => {
    const step = answer === undefined ? s.search.next() : s.search.next(answer);
    if (step.done === true) {
      finish(s.index, step.value);
      return false;
    }
    s.rows = step.value;
    out.queries[s.index] = out.queries[s.index]! + s.rows.length;
    // The search checks its budget before asking; this is the guarantee the caller relies on.
    if (out.queries[s.index]! > o.budget) throw new Error(`${fn}: internal error, record ${s.index} exceeded its budget of ${o.budget} queries`);
    return true;
  };
  let nextRecord = 0;
  let active: Search[] = [];
  const refill = () => {
    while (active.length < parallel && nextRecord < n) {
      const index = nextRecord++;
      const record = Float64Array.from(values.subarray(index * d, (index + 1) * d));
      const s: Search = { index, search: boundarySearch(record, labels[index]!, o, seededRandom(deriveSeed(seed, 'boundary', index))), rows: [] };
      if (advance(s)) active.push(s);
    }
  };
  refill();
  while (active.length > 0) {
    const rows = active.flatMap((s) => s.rows);
    const answers = new Int32Array(rows.length);
    for (let start = 0; start < rows.length; start += batchSize) {
      const chunk = rows.slice(start, start + batchSize);
      const flat = new Float32Array(chunk.length * d);
      chunk.forEach((r, k) => flat.set(r, k * d));
      const batch = tf.tensor(flat, [chunk.length, ...shape]);
      let predicted: Int32Array;
      try {
        predicted = await oracle(batch);
      } finally {
        batch.dispose();
      }
      if (predicted === null || typeof predicted !== 'object' || predicted.length !== chunk.length)
        throw new InvalidArgumentError(`${fn}: the oracle must return one label per row (${chunk.length}), got ${describeValue(predicted)}`);
      answers.set(predicted, start);
    }
    let offset = 0;
    active = active.filter((s) => {
      const answer = answers.subarray(offset, offset + s.rows.length);
      offset += s.rows.length;
      return advance(s, Int32Array.from(answer));
    });
    refill();
  }
  return out;
}
