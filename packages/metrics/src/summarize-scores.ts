import { MetricsError } from './metrics-error';
import type { RateCounts } from './operating-point';
import type { SummarizeAttackOptions } from './summarize-attack';
import type { TprAtFprResult } from './tpr-at-fpr';
import { checkNumber, describe, type Membership, type Scores } from './validate';

/** What {@link summarizeScores} returns: every number of `summarizeAttack` but the ROC curve. */
export interface ScoreSummary extends RateCounts {
  /** ROC-AUC, ties counted ½. */
  auc: number;
  /** Best-threshold advantage `max(TPR − FPR)` over the ROC vertices (optimistic, ≥ 0). */
  advantage: number;
  /** `½·(1 + advantage)` at the best vertex. */
  balancedAccuracy: number;
  /** The threshold reaching `advantage`: predict member iff `score ≥ threshold` (`+Infinity` = nobody). */
  threshold: number;
  /** TPR at each requested FPR, in the order given. */
  tprAtFpr: TprAtFprResult[];
}

/** Splits validated scores into fresh member and non-member arrays, without a copy of the whole input. */
function splitForSummary(fn: string, scores: unknown, isMember: unknown): { members: Float64Array; nonMembers: Float64Array } {
  const arrayLike = (v: unknown): v is ArrayLike<unknown> => (Array.isArray(v) || ArrayBuffer.isView(v)) && !(v instanceof DataView);
  if (!arrayLike(scores)) throw new MetricsError(`${fn}: scores must be an array of numbers, got ${describe(scores)}`);
  if (!arrayLike(isMember)) throw new MetricsError(`${fn}: isMember must be an array, got ${describe(isMember)}`);
  if (scores.length !== isMember.length)
    throw new MetricsError(`${fn}: scores and isMember must have the same length, got ${scores.length} and ${isMember.length}`, { kind: 'ShapeMismatchError' });
  let numMembers = 0;
  for (let i = 0; i < scores.length; i++) {
    const v = scores[i];
    if (typeof v !== 'number') throw new MetricsError(`${fn}: scores[${i}] must be a number, got ${describe(v)}`);
    if (Number.isNaN(v)) throw new MetricsError(`${fn}: scores[${i}] must not be NaN, got NaN`);
    const m = isMember[i];
    if (m === true || m === 1) numMembers++;
    else if (m !== false && m !== 0) throw new MetricsError(`${fn}: isMember[${i}] must be a boolean or 0/1, got ${describe(m)}`);
  }
  const numNonMembers = scores.length - numMembers;
  if (numMembers === 0 || numNonMembers === 0)
    throw new MetricsError(`${fn}: isMember must contain both members and non-members, got ${numMembers} members and ${numNonMembers} non-members`);
  const members = new Float64Array(numMembers);
  const nonMembers = new Float64Array(numNonMembers);
  for (let i = 0, m = 0, n = 0; i < scores.length; i++) {
    const member = isMember[i];
    if (member === true || member === 1) members[m++] = scores[i] as number;
    else nonMembers[n++] = scores[i] as number;
  }
  return { members, nonMembers };
}

/**
 * The numbers of {@link summarizeAttack} — AUC, best-threshold advantage and balanced accuracy,
 * TPR at the requested FPRs — without building the ROC curve: the member and non-member scores are
 * copied and sorted once, then read in one merge pass over the tie blocks. Same conventions, same
 * floating-point results; the extra memory is one copy of the scores (8 bytes per example) instead
 * of about nine, so ten million scores need 80 MB, not 700 MB.
 *
 * @param scores - One score per example, higher = more likely member (no NaN).
 * @param isMember - One label per example: `true`/`1` member, `false`/`0` non-member.
 * @param options - {@link SummarizeAttackOptions}.
 * @returns The {@link ScoreSummary}, with the counts at the best vertex.
 * @throws MetricsError on NaN scores, bad labels, empty input, a single class, different lengths,
 *   or an FPR outside [0, 1].
 * @see docs/protocol.md §5, §7 A30, A32.
 */
export function summarizeScores(scores: Scores, isMember: Membership, options: SummarizeAttackOptions = {}): ScoreSummary {
  const fn = 'summarizeScores';
  const fprs = options.fprs ?? [0.01, 0.001, 0];
  if (!Array.isArray(fprs)) throw new MetricsError(`${fn}: fprs must be an array of numbers in [0, 1], got ${describe(fprs)}`);
  fprs.forEach((fpr: unknown, i) => checkNumber(fn, `fprs[${i}]`, fpr, 0, 1));
  const strict = options.strict === true;
  const { members, nonMembers } = splitForSummary(fn, scores, isMember);
  members.sort();
  nonMembers.sort();
  const numMembers = members.length;
  const numNonMembers = nonMembers.length;
  // Vertex 0, (0, 0) at +Infinity: the fallback of every target and the first best vertex.
  const targetThreshold = new Float64Array(fprs.length).fill(Infinity);
  const targetTruePositives = new Float64Array(fprs.length);
  const targetFalsePositives = new Float64Array(fprs.length);
  let bestThreshold = Infinity;
  let bestTruePositives = 0;
  let bestFalsePositives = 0;
  let bestAdvantage = 0;
  let u = 0;
  let nonMembersBelow = numNonMembers;
  let truePositives = 0;
  let falsePositives = 0;
  let i = numMembers - 1;
  let j = numNonMembers - 1;
  // The blocks of scoreBlocks, in descending order; the sums of aucOfBlocks, rocOfBlocks and bestOperatingPoint.
  while (i >= 0 || j >= 0) {
    const a = i >= 0 ? members[i]! : -Infinity;
    const b = j >= 0 ? nonMembers[j]! : -Infinity;
    const v = a > b ? a : b;
    let m = 0;
    let n = 0;
    for (; i >= 0 && members[i] === v; i--) m++;
    for (; j >= 0 && nonMembers[j] === v; j--) n++;
    nonMembersBelow -= n;
    u += m * nonMembersBelow + 0.5 * m * n;
    truePositives += m;
    falsePositives += n;
    const fpr = falsePositives / numNonMembers;
    const advantage = truePositives / numMembers - fpr;
    if (advantage > bestAdvantage) {
      bestAdvantage = advantage;
      bestThreshold = v;
      bestTruePositives = truePositives;
      bestFalsePositives = falsePositives;
    }
    for (let k = 0; k < fprs.length; k++) {
      if (strict ? fpr < fprs[k]! : fpr <= fprs[k]!) {
        targetThreshold[k] = v;
        targetTruePositives[k] = truePositives;
        targetFalsePositives[k] = falsePositives;
      }
    }
  }
  return {
    auc: u / (numMembers * numNonMembers),
    advantage: bestAdvantage,
    balancedAccuracy: 0.5 * (bestTruePositives / numMembers + (1 - bestFalsePositives / numNonMembers)),
    threshold: bestThreshold,
    tprAtFpr: fprs.map((fpr, k) => ({
      fpr,
      tpr: targetTruePositives[k]! / numMembers,
      achievedFpr: targetFalsePositives[k]! / numNonMembers,
      threshold: targetThreshold[k]!,
      truePositives: targetTruePositives[k]!,
      falsePositives: targetFalsePositives[k]!,
      numMembers,
      numNonMembers,
    })),
    truePositives: bestTruePositives,
    falsePositives: bestFalsePositives,
    numMembers,
    numNonMembers,
  };
}
