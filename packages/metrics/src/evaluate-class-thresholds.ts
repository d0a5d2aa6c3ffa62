import { labeledScores, type LabeledScores } from './group-by-class';
import { MetricsError } from './metrics-error';
import type { RateCounts } from './operating-point';
import { toNumbers, type ClassLabels, type Scores } from './validate';

/** How fitted thresholds do on evaluation (target) data. */
export interface ThresholdEvaluation extends RateCounts {
  /** Balanced accuracy `½·(TP/numMembers + TN/numNonMembers)`. */
  accuracy: number;
  /** `truePositives / numMembers`. */
  tpr: number;
  /** `falsePositives / numNonMembers`. */
  fpr: number;
  /** `tpr − fpr` (can be negative). */
  advantage: number;
}

/**
 * Applies per-class thresholds to the target's members and non-members: an example of class c is
 * predicted member iff `score ≥ thresholds[c]`. The accuracy is RL/SM's
 * `0.5·(#members predicted member/|members| + #non-members predicted non-member/|non-members|)`.
 * For a single global threshold pass a filled array, or use {@link operatingPoint}.
 *
 * @param thresholds - One threshold per class (e.g. `fitClassThresholds(...).thresholds`).
 * @param memberScores - Target members' scores, higher = more likely member.
 * @param memberLabels - Their class labels.
 * @param nonMemberScores - Target non-members' scores.
 * @param nonMemberLabels - Their class labels.
 * @returns Balanced accuracy, TPR, FPR, advantage and the counts.
 * @throws MetricsError on empty sets, NaN scores or thresholds, bad labels, different lengths, or a
 *   label without a threshold.
 * @see docs/protocol.md §3.1 "Target accuracy"; §5 "Attack accuracy".
 */
export function evaluateClassThresholds(
  thresholds: ArrayLike<number>,
  memberScores: Scores,
  memberLabels: ClassLabels,
  nonMemberScores: Scores,
  nonMemberLabels: ClassLabels,
): ThresholdEvaluation {
  const fn = 'evaluateClassThresholds';
  const perClass = toNumbers(fn, 'thresholds', thresholds);
  const members = labeledScores(fn, 'memberScores', memberScores, 'memberLabels', memberLabels);
  const nonMembers = labeledScores(fn, 'nonMemberScores', nonMemberScores, 'nonMemberLabels', nonMemberLabels);
  const truePositives = countAtOrAbove(fn, members, perClass);
  const falsePositives = countAtOrAbove(fn, nonMembers, perClass);
  const numMembers = members.scores.length;
  const numNonMembers = nonMembers.scores.length;
  const tpr = truePositives / numMembers;
  const fpr = falsePositives / numNonMembers;
  const accuracy = 0.5 * (truePositives / numMembers + (numNonMembers - falsePositives) / numNonMembers);
  return { accuracy, tpr, fpr, advantage: tpr - fpr, truePositives, falsePositives, numMembers, numNonMembers };
}

function countAtOrAbove(fn: string, set: LabeledScores, thresholds: Float64Array): number {
  let count = 0;
  set.labels.forEach((label, i) => {
    if (label >= thresholds.length) {
      throw new MetricsError(`${fn}: class ${label} has no threshold (thresholds has ${thresholds.length} entries)`);
    }
    if (set.scores[i]! >= thresholds[label]!) count++;
  });
  return count;
}
