import { mean } from './loss-gap';
import { toNumbers } from './validate';

/**
 * Population variance (ddof = 0, numpy `np.var`) of per-example losses, as CCL reports for the
 * training set (and the test set): `Σ (ℓ_i − mean)² / n`, computed in two passes.
 *
 * @param losses - Per-example losses (non-empty, finite).
 * @returns The variance, ≥ 0.
 * @throws MetricsError when the array is empty or holds a NaN or infinite value.
 * @see docs/protocol.md §5 "Loss variance" (CCL Fig. 1, 4c; CCLr `np.var`).
 */
export function lossVariance(losses: ArrayLike<number>): number {
  const values = toNumbers('lossVariance', 'losses', losses, { finite: true });
  const mu = mean(values);
  let sum = 0;
  for (const v of values) sum += (v - mu) * (v - mu);
  return sum / values.length;
}
