import { bestOperatingPoint } from './best-operating-point';
import { operatingPointFor } from './operating-point';
import { rocCurveFor } from './roc-curve';
import type { Membership, Scores } from './validate';

/** Options of {@link attackAdvantage} and {@link balancedAccuracy}. */
export interface ThresholdOptions {
  /**
   * Evaluate at this fixed threshold (predict member iff `score ≥ threshold`) instead of taking the
   * best threshold over the ROC curve.
   * @default undefined (best threshold)
   */
  threshold?: number;
}

/**
 * Membership advantage `TPR − FPR` (Yeom et al.). Without `threshold`: the maximum over every
 * threshold of the exact ROC curve (≥ 0, an optimistic best-threshold value). With `threshold`:
 * the advantage of "predict member iff `score ≥ threshold`", which can be negative (nothing is clamped).
 *
 * Conventions: higher score = more likely member; TPR/FPR are fractions; the result is in [−1, 1].
 *
 * @param scores - One score per example (no NaN).
 * @param isMember - One label per example: `true`/`1` member, `false`/`0` non-member.
 * @param options - {@link ThresholdOptions}.
 * @returns `TPR − FPR`.
 * @throws MetricsError on NaN scores or threshold, bad labels, empty input, a single class or different lengths.
 * @see docs/protocol.md §5 "Attack advantage" (PAST Eq. 5, CCL Eq. 2).
 */
export function attackAdvantage(scores: Scores, isMember: Membership, options: ThresholdOptions = {}): number {
  const fn = 'attackAdvantage';
  if (options.threshold === undefined) return bestOperatingPoint(rocCurveFor(fn, scores, isMember)).advantage;
  const point = operatingPointFor(fn, scores, isMember, options.threshold);
  return point.tpr - point.fpr;
}
