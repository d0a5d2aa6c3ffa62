import { InvalidArgumentError, ShapeMismatchError } from '@mia/core';
import type { ModelSignals, ReferenceSignals } from '../signals/model-signals';
import { toMembershipArray } from '../signals/validate-input';

/** Validated reference signals: K models over n examples with A queries each (internal). */
export interface CheckedReferences {
  readonly models: readonly ModelSignals[];
  readonly keep: readonly Uint8Array[];
  readonly size: number;
  readonly numQueries: number;
}

/** Number of queries of a signal set (1 when it has none: the plain signal is the only query) (internal). */
export function queryCount(s: ModelSignals): number {
  return s.queries === undefined || s.queries.length === 0 ? 1 : s.queries.length;
}

/** φ of query `a` (or the plain φ when there are no queries) (internal). */
export function queryPhi(s: ModelSignals, a: number): Float64Array {
  return s.queries === undefined || s.queries.length === 0 ? s.phi : s.queries[a]!.phi;
}

/** Checks reference signals: ≥ 1 model, equal sizes and query counts, a 0/1 keep row per model (internal). */
export function checkReferences(fn: string, ref: ReferenceSignals): CheckedReferences {
  if (typeof ref !== 'object' || ref === null || !Array.isArray(ref.models) || ref.models.length === 0) {
    throw new InvalidArgumentError(`${fn}: references must be {models, keep} with at least one model`);
  }
  if (!Array.isArray(ref.keep) || ref.keep.length !== ref.models.length) {
    throw new ShapeMismatchError(
      `${fn}: keep must have one row per reference model (${ref.models.length}), got ${Array.isArray(ref.keep) ? ref.keep.length : typeof ref.keep}`,
    );
  }
  const size = ref.models[0]!.size;
  if (size === 0) throw new InvalidArgumentError(`${fn}: the audit set must not be empty`);
  const numQueries = queryCount(ref.models[0]!);
  ref.models.forEach((m, k) => {
    if (m.size !== size) throw new ShapeMismatchError(`${fn}: every reference model must score the same ${size} examples, model ${k} has ${m.size}`);
    if (queryCount(m) !== numQueries)
      throw new ShapeMismatchError(`${fn}: every reference model must have ${numQueries} queries, model ${k} has ${queryCount(m)}`);
  });
  const keep = ref.keep.map((row, k) => toMembershipArray(fn, `keep[${k}]`, row, size));
  return { models: ref.models, keep, size, numQueries };
}

/** Checks the target's signals cover the audit set of the references (internal). */
export function checkTarget(fn: string, target: ModelSignals, ref: CheckedReferences | undefined): CheckedReferences {
  if (ref === undefined) throw new InvalidArgumentError(`${fn}: call prepare() before scoring`);
  if (target.size !== ref.size)
    throw new ShapeMismatchError(`${fn}: target signals must cover the ${ref.size} audit examples of the references, got ${target.size}`);
  if (queryCount(target) !== ref.numQueries)
    throw new ShapeMismatchError(`${fn}: target must have ${ref.numQueries} queries like the references, got ${queryCount(target)}`);
  return ref;
}

/** Checks population indices into an audit set of `size` examples; default = all (internal). */
export function checkPopulation(fn: string, population: ArrayLike<number> | undefined, size: number): Int32Array {
  if (population === undefined) return Int32Array.from({ length: size }, (_, i) => i);
  const out = Int32Array.from(population);
  if (out.length === 0) throw new InvalidArgumentError(`${fn}: population must not be empty`);
  out.forEach((i, k) => {
    if (!Number.isInteger(population[k]) || i < 0 || i >= size)
      throw new InvalidArgumentError(`${fn}: population[${k}] must be an index in [0, ${size - 1}], got ${population[k]}`);
  });
  return out;
}

/** Median of a non-empty array (mean of the two middle values for an even count) (internal). */
export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Population standard deviation (ddof 0, numpy `np.std`) (internal). */
export function std(values: ArrayLike<number>): number {
  let mean = 0;
  for (let i = 0; i < values.length; i++) mean += values[i]!;
  mean /= values.length;
  let sq = 0;
  for (let i = 0; i < values.length; i++) sq += (values[i]! - mean) ** 2;
  return Math.sqrt(sq / values.length);
}

/** Standard normal CDF Φ via erfc (Numerical Recipes `erfcc`, fractional error < 1.2e-7) (internal). */
export function normalCdf(z: number): number {
  const x = -z / Math.SQRT2;
  const a = Math.abs(x);
  const t = 1 / (1 + 0.5 * a);
  const r =
    t *
    Math.exp(
      -a * a -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return 0.5 * (x >= 0 ? r : 2 - r);
}

const LOG_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);

/** Log-density of N(μ, σ²) at x (internal). */
export function logPdf(x: number, mu: number, sigma: number): number {
  return -0.5 * ((x - mu) / sigma) ** 2 - Math.log(sigma) - LOG_SQRT_2PI;
}
