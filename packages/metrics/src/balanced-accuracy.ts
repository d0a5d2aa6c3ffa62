import type { ThresholdOptions } from './attack-advantage';
import { bestOperatingPoint } from './best-operating-point';
import { operatingPointFor } from './operating-point';
import { rocCurveFor } from './roc-curve';
import type { Membership, Scores } from './validate';

/**
 * Balanced attack accuracy `½·(TPR + (1 − FPR))`, the accuracy on equal-size member and non-member
 * sets. Without `threshold`: the best-threshold value over the exact ROC curve (PMr; equals
 * `½·(1 + max advantage)`, optimistic). With `threshold`: the accuracy of "predict member iff
 * `score ≥ threshold`".
 *
 * @param scores - One score per example, higher = more likely member (no NaN).
 * @param isMember - One label per example: `true`/`1` member, `false`/`0` non-member.
 * @param options - {@link ThresholdOptions}.
 * @returns The balanced accuracy in [0, 1].
 * @throws MetricsError on NaN scores or threshold, bad labels, empty input, a single class or different lengths.
 * @see docs/protocol.md §5 "Attack accuracy", "Balanced accuracy from ROC"; §7 A32.
 */
export function balancedAccuracy(scores: Scores, isMember: Membership, options: ThresholdOptions = {}): number {
  const fn = 'balancedAccuracy';
  if (options.threshold === undefined) return bestOperatingPoint(rocCurveFor(fn, scores, isMember)).balancedAccuracy;
  const point = operatingPointFor(fn, scores, isMember, options.threshold);
  return 0.5 * (point.tpr + (1 - point.fpr));
}
