import { bestOperatingPoint } from './best-operating-point';
import { MetricsError } from './metrics-error';
import { rocOfBlocks, type RocCurve } from './roc-curve';
import { aucOfBlocks, scoreBlocks, sortedAscending } from './score-blocks';
import { tprAtFpr, type TprAtFprOptions, type TprAtFprResult } from './tpr-at-fpr';
import { checkNumber, describe, splitScores, type Membership, type Scores } from './validate';

/** Options of {@link summarizeAttack}. */
export interface SummarizeAttackOptions {
  /** Target FPRs (fractions) at which to report the TPR. @default [0.01, 0.001, 0] */
  fprs?: readonly number[];
  /** Use the strict `FPR < target` convention for TPR@FPR ({@link TprAtFprOptions}). @default false */
  strict?: boolean;
}

/** The metrics of one attack's scores on the target's members and non-members. */
export interface AttackMetrics {
  /** ROC-AUC, ties counted ½ ({@link auc}). */
  auc: number;
  /** Best-threshold advantage `max(TPR − FPR)` over the ROC (optimistic, ≥ 0). */
  advantage: number;
  /** Best-threshold balanced accuracy `½·(1 + advantage)` (PMr "balanced accuracy from ROC"). */
  balancedAccuracy: number;
  /** The threshold reaching `advantage`: predict member iff `score ≥ threshold`. */
  threshold: number;
  /** TPR at each requested FPR, in the order given (`≤` convention unless `strict`, no interpolation). */
  tprAtFpr: TprAtFprResult[];
  /** The exact step ROC curve. */
  roc: RocCurve;
  /** Number of members scored. */
  numMembers: number;
  /** Number of non-members scored (TPR at FPR < 1/numNonMembers is TPR at FPR 0). */
  numNonMembers: number;
}

/**
 * All threshold-free metrics of one attack in one pass: AUC, best-threshold advantage and balanced
 * accuracy, TPR at the requested FPRs, and the ROC curve. What `@mia/attacks`' suite reports per
 * attack; a shadow-fitted threshold's accuracy is a separate number (PROTOCOL §5: do not mix them).
 *
 * Conventions: higher score = more likely member; rates are fractions; thresholds mean
 * "predict member iff `score ≥ threshold`".
 *
 * @param scores - One score per example (no NaN).
 * @param isMember - One label per example: `true`/`1` member, `false`/`0` non-member.
 * @param options - {@link SummarizeAttackOptions}.
 * @returns The {@link AttackMetrics}.
 * @throws MetricsError on NaN scores, bad labels, empty input, a single class, different lengths,
 *   or an FPR outside [0, 1].
 * @see docs/protocol.md §3.0 `AttackResult`, §5, §7 A30, A32.
 */
export function summarizeAttack(scores: Scores, isMember: Membership, options: SummarizeAttackOptions = {}): AttackMetrics {
  const fn = 'summarizeAttack';
  const fprs = options.fprs ?? [0.01, 0.001, 0];
  if (!Array.isArray(fprs)) throw new MetricsError(`${fn}: fprs must be an array of numbers in [0, 1], got ${describe(fprs)}`);
  fprs.forEach((fpr: unknown, i) => checkNumber(fn, `fprs[${i}]`, fpr, 0, 1));
  const { members, nonMembers } = splitScores(fn, scores, isMember);
  const blocks = scoreBlocks(sortedAscending(members), sortedAscending(nonMembers));
  const roc = rocOfBlocks(blocks);
  const best = bestOperatingPoint(roc);
  return {
    auc: aucOfBlocks(blocks),
    advantage: best.advantage,
    balancedAccuracy: best.balancedAccuracy,
    threshold: best.threshold,
    tprAtFpr: fprs.map((fpr) => tprAtFpr(roc, fpr, { strict: options.strict === true })),
    roc,
    numMembers: roc.numMembers,
    numNonMembers: roc.numNonMembers,
  };
}
