import * as tf from '@tensorflow/tfjs-core';
import {
  check,
  checkPositiveInteger,
  deriveSeed,
  InvalidArgumentError,
  labeledData,
  predictLogits,
  seededRandom,
  type Classifier,
  type LabeledData,
} from '@mia/core';
import { drawInclusion } from './draw-inclusion';

/** Options of {@link insertInputCanaries}. */
export interface InputCanariesOptions {
  /** m ≥ 1: the number of canaries. */
  readonly count: number;
  /** Seeds the inclusion vector and the canaries (which pool records, which wrong labels, which random inputs). */
  readonly seed: number;
  /**
   * `'mislabeled'`: `count` records drawn from `pool`, each given a random wrong label. `'random'`:
   * out-of-distribution inputs, every value uniform in [0, 1), with a random label.
   * @default 'mislabeled' with a `pool`, else 'random'
   */
  readonly kind?: 'mislabeled' | 'random';
  /** Records the training does not otherwise contain (a held-out split), at least `count`; required with `'mislabeled'`. */
  readonly pool?: LabeledData;
}

/** The canaries of {@link insertInputCanaries}. */
export interface InputCanaries {
  readonly count: number;
  readonly seed: number;
  readonly kind: 'mislabeled' | 'random';
  /** All m canary records (in and out), by canary id, with their canary labels. */
  readonly records: LabeledData;
  /**
   * The score of every canary, by canary id: minus the model's cross-entropy on it (eval mode),
   * higher = more likely included. Reads the records and the model only, never the inclusion vector.
   */
  scores(model: Classifier): Float64Array;
  /** The inclusion vector (1 = canary i is in the training data), seeded by `seed`; a copy. */
  inclusion(): Uint8Array;
  /** Frees the records' tensor. */
  dispose(): void;
}

/** The records of the canaries: their inputs `[m, ...inputShape]` and labels. */
function canaryRecords(fn: string, data: LabeledData, options: InputCanariesOptions, kind: 'mislabeled' | 'random'): { x: tf.Tensor; y: Int32Array } {
  const { count, seed, pool } = options;
  const numClasses = data.numClasses;
  const labels = seededRandom(deriveSeed(seed, 'canary-labels'));
  if (kind === 'random') {
    const size = data.inputShape.reduce((a, b) => a * b, 1);
    const values = seededRandom(deriveSeed(seed, 'canary-inputs'));
    const x = tf.tensor(
      Float32Array.from({ length: count * size }, () => values.next()),
      [count, ...data.inputShape],
    );
    return { x, y: Int32Array.from({ length: count }, () => labels.int(numClasses)) };
  }
  check(numClasses >= 2, fn, 'data.numClasses', "at least 2 with kind 'mislabeled' (a wrong label must exist)", numClasses);
  const shape = (d: LabeledData) => d.inputShape.join('×');
  if (pool === undefined || typeof pool.gather !== 'function')
    throw new InvalidArgumentError(`${fn}: pool must be a LabeledData with kind 'mislabeled', got ${String(pool)}`);
  if (pool.size < count) throw new InvalidArgumentError(`${fn}: pool must hold at least count = ${count} records, got ${pool.size}`);
  if (shape(pool) !== shape(data)) throw new InvalidArgumentError(`${fn}: pool must have the inputs of data (${shape(data)}), got ${shape(pool)}`);
  const picked = seededRandom(deriveSeed(seed, 'canary-pool')).sample(pool.size, count);
  // A wrong label: the true one shifted by 1 … C − 1 (uniform over the other classes).
  const y = Int32Array.from(picked, (i) => (pool.y[i]! + 1 + labels.int(numClasses - 1)) % numClasses);
  return { x: pool.gather(picked), y };
}

/**
 * Input-space canaries for a one-run privacy audit of any training (Steinke, Nasr & Jagielski 2023,
 * black-box, input-space canaries): m canary records — mislabelled records of a held-out pool, or random
 * out-of-distribution inputs with random labels — each included in the training data independently
 * with probability ½ (seeded). Returns the training data with the included canaries appended (train
 * on it, and give it to `dpSgdPlugin({ data })`, whose Poisson sampling then treats canaries like any
 * other record) and the canaries, whose {@link InputCanaries.scores} (minus the loss) and
 * {@link InputCanaries.inclusion} feed `auditCanaries` of `@mia/metrics`. Weaker than the white-box
 * gradient canaries (the model's loss on an input reflects many steps' noise and the other records),
 * but they need no access to the optimizer.
 *
 * @param data - the training data; it is not copied (the result gathers from it).
 * @param options - {@link InputCanariesOptions}.
 * @returns `{ data, canaries }`: the augmented training data (N + the included canaries, canaries last) and the canaries.
 * @throws InvalidArgumentError on a bad count or seed, an unknown kind, or a pool that is missing, too small or of other inputs.
 * @see Steinke, Nasr & Jagielski (2023), arXiv:2305.08846, Algorithm 1 and the input-space (black-box) experiments
 */
export function insertInputCanaries(data: LabeledData, options: InputCanariesOptions): { data: LabeledData; canaries: InputCanaries } {
  const fn = 'insertInputCanaries';
  check(typeof data?.gather === 'function' && data.y instanceof Int32Array, fn, 'data', 'a LabeledData', data);
  check(typeof options === 'object' && options !== null, fn, 'options', 'an object {count, seed, kind?, pool?}', options);
  checkPositiveInteger(fn, 'count', options.count);
  check(Number.isInteger(options.seed), fn, 'seed', 'an integer', options.seed);
  const kind = options.kind ?? (options.pool === undefined ? 'random' : 'mislabeled');
  check(kind === 'mislabeled' || kind === 'random', fn, 'kind', "'mislabeled' or 'random'", kind);
  const { count, seed } = options;
  const included = drawInclusion(count, deriveSeed(seed, 'canary-inclusion'));
  const { x, y } = canaryRecords(fn, data, options, kind);
  const records = labeledData({ x, y, numClasses: data.numClasses });
  const inIds = Int32Array.from(Array.from(included).flatMap((inc, i) => (inc === 1 ? [i] : [])));
  const n = data.size;
  const augmentedY = new Int32Array(n + inIds.length);
  augmentedY.set(data.y);
  inIds.forEach((id, j) => (augmentedY[n + j] = y[id]!));
  const augmented: LabeledData = {
    size: n + inIds.length,
    numClasses: data.numClasses,
    inputShape: data.inputShape,
    y: augmentedY,
    gather(indices) {
      const fromData: number[] = [];
      const fromCanaries: number[] = [];
      const order: number[] = [];
      for (let j = 0; j < indices.length; j++) {
        const i = indices[j]!;
        if (i < n) order.push(fromData.push(i) - 1);
        else order.push(-fromCanaries.push(inIds[i - n]!)); // −k: the k-th canary (1-based)
      }
      if (fromCanaries.length === 0) return data.gather(fromData);
      if (fromData.length === 0) return records.gather(fromCanaries);
      return tf.tidy(() => {
        const both = tf.concat([data.gather(fromData), records.gather(fromCanaries)]);
        const position = Int32Array.from(order, (k) => (k >= 0 ? k : fromData.length - k - 1));
        return tf.gather(both, position);
      });
    },
  };
  const canaries: InputCanaries = {
    count,
    seed,
    kind,
    records,
    scores(model) {
      const logits = predictLogits(model, records);
      const values = logits.arraySync();
      logits.dispose();
      return Float64Array.from(values, (row, i) => {
        const max = Math.max(...row);
        const logSumExp = max + Math.log(row.reduce((s, z) => s + Math.exp(z - max), 0));
        return row[y[i]!]! - logSumExp; // −cross-entropy
      });
    },
    inclusion: () => included.slice(),
    dispose: () => x.dispose(),
  };
  return { data: augmented, canaries };
}
