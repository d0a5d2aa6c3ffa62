import { scoreBlocks, sortedAscending, type ScoreBlocks } from './score-blocks';
import { MetricsError } from './metrics-error';
import { describe, splitScores, type Membership, type Scores } from './validate';

/**
 * An exact step ROC curve. Vertex `k` is the operating point "predict member iff
 * `score ≥ thresholds[k]`"; vertex 0 is `(fpr, tpr) = (0, 0)` with threshold `+Infinity` (predict
 * nobody), and the last vertex is `(1, 1)` at the lowest score. Rates are fractions in [0, 1].
 */
export interface RocCurve {
  /** False-positive rate of each vertex, non-decreasing: `#{non-members ≥ threshold} / numNonMembers`. */
  fpr: Float64Array;
  /** True-positive rate of each vertex, non-decreasing: `#{members ≥ threshold} / numMembers`. */
  tpr: Float64Array;
  /**
   * Threshold of each vertex: `thresholds[0] = +Infinity` (predict nobody), then the distinct
   * scores in strictly decreasing order (so `thresholds[1]` is also `+Infinity` when a score is).
   */
  thresholds: Float64Array;
  /** Number of members the curve was computed on. */
  numMembers: number;
  /** Number of non-members the curve was computed on. */
  numNonMembers: number;
}

/** Builds the ROC vertices of tie blocks (one vertex per block end, plus the (0, 0) start). */
export function rocOfBlocks(blocks: ScoreBlocks): RocCurve {
  const size = blocks.length + 1;
  const fpr = new Float64Array(size);
  const tpr = new Float64Array(size);
  const thresholds = new Float64Array(size);
  thresholds[0] = Infinity;
  let truePositives = 0;
  let falsePositives = 0;
  for (let b = 0; b < blocks.length; b++) {
    truePositives += blocks.members[b]!;
    falsePositives += blocks.nonMembers[b]!;
    tpr[b + 1] = truePositives / blocks.totalMembers;
    fpr[b + 1] = falsePositives / blocks.totalNonMembers;
    thresholds[b + 1] = blocks.values[b]!;
  }
  return { fpr, tpr, thresholds, numMembers: blocks.totalMembers, numNonMembers: blocks.totalNonMembers };
}

/**
 * Exact step ROC curve of membership scores, with tied scores treated as one block: a vertex lies
 * only at the end of each block of equal scores (all tied examples switch to "member" together),
 * as in sklearn `roc_curve(drop_intermediate=False)` and PMm `audit.py`.
 *
 * Conventions: higher score = more likely member; an example is predicted member iff
 * `score ≥ threshold`; FPR and TPR are fractions. Runs in O(n log n).
 *
 * @param scores - One score per example (any numbers except NaN; ±Infinity allowed).
 * @param isMember - One label per example: `true`/`1` member, `false`/`0` non-member.
 * @returns The vertices, from `(0, 0)` at threshold `+Infinity` to `(1, 1)` at the lowest score.
 * @throws MetricsError (`InvalidArgumentError` marker) on NaN scores, bad labels, empty input or a
 *   single class; (`ShapeMismatchError` marker) when the lengths differ.
 * @see docs/protocol.md §5 "TPR @ x% FPR" and §3.0 `rocPoints`.
 */
export function rocCurve(scores: Scores, isMember: Membership): RocCurve {
  return rocCurveFor('rocCurve', scores, isMember);
}

/** {@link rocCurve} with the caller's name in its error messages (internal). */
export function rocCurveFor(fn: string, scores: Scores, isMember: Membership): RocCurve {
  const { members, nonMembers } = splitScores(fn, scores, isMember);
  return rocOfBlocks(scoreBlocks(sortedAscending(members), sortedAscending(nonMembers)));
}

/** Checks that `roc` looks like a {@link RocCurve} (internal; used by functions that take a curve). */
export function checkRocCurve(fn: string, roc: unknown): RocCurve {
  const r = roc as Partial<RocCurve> | null;
  const ok =
    typeof r === 'object' &&
    r !== null &&
    r.fpr instanceof Float64Array &&
    r.tpr instanceof Float64Array &&
    r.thresholds instanceof Float64Array &&
    r.fpr.length >= 1 &&
    r.tpr.length === r.fpr.length &&
    r.thresholds.length === r.fpr.length &&
    Number.isInteger(r.numMembers) &&
    (r.numMembers ?? 0) > 0 &&
    Number.isInteger(r.numNonMembers) &&
    (r.numNonMembers ?? 0) > 0;
  if (!ok) {
    throw new MetricsError(
      `${fn}: roc must be a RocCurve from rocCurve() (fpr, tpr, thresholds: Float64Arrays of one length ≥ 1; numMembers, numNonMembers > 0), got ${describe(roc)}`,
    );
  }
  return r as RocCurve;
}
