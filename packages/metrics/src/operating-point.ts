import type { RocCurve } from './roc-curve';
import { checkNotNaN, splitScores, type Membership, type Scores } from './validate';

/** The counts behind a TPR/FPR pair (what {@link rateIntervals} needs). */
export interface RateCounts {
  /** Members predicted member. */
  truePositives: number;
  /** Non-members predicted member. */
  falsePositives: number;
  /** Number of members. */
  numMembers: number;
  /** Number of non-members. */
  numNonMembers: number;
}

/**
 * One operating point of a threshold attack: predict member iff `score ≥ threshold`. Rates are
 * fractions; the counts are kept for confidence intervals ({@link rateIntervals}).
 */
export interface OperatingPoint extends RateCounts {
  /** The decision threshold (`+Infinity` = predict nobody member). */
  threshold: number;
  /** True-positive rate `truePositives / numMembers`. */
  tpr: number;
  /** False-positive rate `falsePositives / numNonMembers`. */
  fpr: number;
}

/** The operating point of ROC vertex `k` (internal). */
export function vertexPoint(roc: RocCurve, k: number): OperatingPoint {
  const tpr = roc.tpr[k]!;
  const fpr = roc.fpr[k]!;
  return {
    threshold: roc.thresholds[k]!,
    tpr,
    fpr,
    truePositives: Math.round(tpr * roc.numMembers),
    falsePositives: Math.round(fpr * roc.numNonMembers),
    numMembers: roc.numMembers,
    numNonMembers: roc.numNonMembers,
  };
}

/**
 * The operating point of a fixed threshold: predict member iff `score ≥ threshold`.
 *
 * @param scores - One score per example, higher = more likely member (no NaN).
 * @param isMember - One label per example: `true`/`1` member, `false`/`0` non-member.
 * @param threshold - The decision threshold (any number but NaN; ±Infinity allowed).
 * @returns TPR, FPR (fractions) and the underlying counts.
 * @throws MetricsError on NaN scores or threshold, bad labels, empty input, a single class or different lengths.
 * @see docs/protocol.md §5 (TPR, FPR definitions).
 */
export function operatingPoint(scores: Scores, isMember: Membership, threshold: number): OperatingPoint {
  return operatingPointFor('operatingPoint', scores, isMember, threshold);
}

/** {@link operatingPoint} with the caller's name in its error messages (internal). */
export function operatingPointFor(fn: string, scores: Scores, isMember: Membership, threshold: number): OperatingPoint {
  const { members, nonMembers } = splitScores(fn, scores, isMember);
  const t = checkNotNaN(fn, 'threshold', threshold);
  let truePositives = 0;
  let falsePositives = 0;
  for (const s of members) if (s >= t) truePositives++;
  for (const s of nonMembers) if (s >= t) falsePositives++;
  return {
    threshold: t,
    tpr: truePositives / members.length,
    fpr: falsePositives / nonMembers.length,
    truePositives,
    falsePositives,
    numMembers: members.length,
    numNonMembers: nonMembers.length,
  };
}
