import { MetricsError } from './metrics-error';
import { checkNumber, flattenValues } from './validate';

/** Sensitivities: one array, or a list of per-module arrays flattened together. */
export type SensitivityInput = ArrayLike<number> | ReadonlyArray<ArrayLike<number>>;

/**
 * Share of values strictly below a threshold, e.g. PAST's "97 % of parameters have privacy
 * sensitivity `|∂G/∂θ|` < 0.1".
 *
 * @param values - The per-parameter sensitivities (finite), or a list of per-module arrays.
 * @param threshold - The threshold (finite).
 * @returns `#{v < threshold} / n`, a fraction.
 * @throws MetricsError when there is no value, a value is NaN or infinite, or threshold is not finite.
 * @see docs/protocol.md §5 "Privacy sensitivity distribution" (PAST Fig. 1b).
 */
export function sensitivityShareBelow(values: SensitivityInput, threshold: number): number {
  const t = checkNumber('sensitivityShareBelow', 'threshold', threshold);
  const w = flattenValues('sensitivityShareBelow', 'values', values);
  let count = 0;
  for (const v of w) if (v < t) count++;
  return count / w.length;
}

/**
 * Cumulative share held by the largest values, as PAST computes "the top 20 % of parameters hold
 * 89.27 % of the cumulative sensitivity": sort descending, take the cumulative sum at 0-based index
 * `min(⌊fraction·n⌋, n − 1)` (so `⌊fraction·n⌋ + 1` values) and divide by the total.
 *
 * @param values - Non-negative per-parameter sensitivities, or a list of per-module arrays.
 * @param fraction - The top fraction in [0, 1], e.g. 0.2.
 * @returns The share of the total, a fraction in [0, 1].
 * @throws MetricsError when there is no value, a value is negative, NaN or infinite, every value is
 *   0 (the share is undefined), or fraction is outside [0, 1].
 * @see docs/protocol.md §5 "Privacy sensitivity distribution" (PAST Fig. 1b).
 */
export function sensitivityTopShare(values: SensitivityInput, fraction: number): number {
  const fn = 'sensitivityTopShare';
  const f = checkNumber(fn, 'fraction', fraction, 0, 1);
  const w = flattenValues(fn, 'values', values).sort();
  const n = w.length;
  if (w[0]! < 0) throw new MetricsError(`${fn}: values must be non-negative, got ${w[0]}`);
  const last = Math.min(Math.floor(f * n), n - 1);
  let total = 0;
  let top = 0;
  for (let i = n - 1; i >= 0; i--) {
    total += w[i]!;
    if (n - 1 - i === last) top = total;
  }
  if (total === 0) throw new MetricsError(`${fn}: values must not all be 0 (the share is undefined), got ${n} zeros`);
  return top / total;
}
