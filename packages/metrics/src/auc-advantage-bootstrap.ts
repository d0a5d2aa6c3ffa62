import { bootstrapSettings, countDraws, percentileInterval } from './bootstrap-blocks';
import type { BootstrapInterval, BootstrapOptions } from './bootstrap';
import { sortedAscending } from './score-blocks';
import { splitScores, type Membership, type Scores } from './validate';

/**
 * The entries of one score set in descending score order, tie block by tie block, the non-members
 * of a block before its members (internal). Arrays of doubles: V8 reads them without conversions.
 */
interface MergedEntries {
  /** Index of each entry's multiplicity in the draws: members `0 … M−1`, non-members `M …`. */
  readonly source: Int32Array;
  /** 1 for a member, 0 for a non-member. */
  readonly member: Float64Array;
  /** 0 for the first entry of a tie block, 1 for the others. */
  readonly sameBlock: Float64Array;
  /** 1 for the last entry of a tie block (a ROC vertex), 0 for the others. */
  readonly blockEnd: Uint8Array;
}

/** Merges the ascending member and non-member scores into descending tie blocks, as `scoreBlocks` does. */
function mergedEntries(members: Float64Array, nonMembers: Float64Array): MergedEntries {
  const size = members.length + nonMembers.length;
  const entries = { source: new Int32Array(size), member: new Float64Array(size), sameBlock: new Float64Array(size).fill(1), blockEnd: new Uint8Array(size) };
  let i = members.length - 1;
  let j = nonMembers.length - 1;
  let e = 0;
  while (i >= 0 || j >= 0) {
    const a = i >= 0 ? members[i]! : -Infinity;
    const b = j >= 0 ? nonMembers[j]! : -Infinity;
    // Take the larger head, then drain both arrays of that value (`===` also joins -0 and +0).
    const v = a > b ? a : b;
    entries.sameBlock[e] = 0;
    for (; j >= 0 && nonMembers[j] === v; j--) entries.source[e++] = members.length + j;
    for (; i >= 0 && members[i] === v; i--) {
      entries.source[e] = i;
      entries.member[e++] = 1;
    }
    entries.blockEnd[e - 1] = 1;
  }
  return entries;
}

/**
 * The AUC (Mann–Whitney, ties ½) and the best advantage `max(TPR − FPR)` over the ROC vertices of
 * the entries counted `draws[source]` times, in one branch-free pass, with the floating-point
 * results of `aucOfBlocks` and `bestOperatingPoint(rocOfBlocks(blocks)).advantage` on the tie blocks
 * of the drawn entries. The AUC sums integers and halves, exact in any order: each member adds the
 * non-members below it and half those of its block (counted before it). Vertices are compared by
 * the exact integer `TP·N − FP·M` (exact in doubles while `M·N ≤ 2^53`), and `TP/M − FP/N` is only
 * computed at a block end that reaches the best so far: vertices whose integers differ have
 * advantages at least `1/(M·N)` apart, far more than the rounding of either, so the maximum is the
 * same; inside a block (non-members first) no point is above both of its ends.
 */
function aucAndBestAdvantage(entries: MergedEntries, draws: Float64Array, totalMembers: number, totalNonMembers: number): [number, number] {
  const { source, member, sameBlock, blockEnd } = entries;
  const exact = totalMembers * totalNonMembers <= 2 ** 53;
  let u = 0;
  let nonMembersBelow = totalNonMembers;
  let blockNonMembers = 0;
  let best = 0;
  let bestScaled = 0;
  let truePositives = 0;
  let falsePositives = 0;
  for (let e = 0; e < source.length; e++) {
    const w = draws[source[e]!]!;
    const m = w * member[e]!;
    const n = w - m;
    blockNonMembers = blockNonMembers * sameBlock[e]! + n;
    nonMembersBelow -= n;
    u += m * nonMembersBelow + 0.5 * m * blockNonMembers;
    truePositives += m;
    falsePositives += n;
    const scaled = truePositives * totalNonMembers - falsePositives * totalMembers;
    if ((exact && scaled < bestScaled) || blockEnd[e] === 0) continue;
    bestScaled = scaled;
    const advantage = truePositives / totalMembers - falsePositives / totalNonMembers;
    if (advantage > best) best = advantage;
  }
  return [u / (totalMembers * totalNonMembers), best];
}

/**
 * Percentile bootstrap intervals of the AUC and the best advantage of each score set of the same
 * members and non-members, on stratified resamples whose draws (positions in each set's ascending
 * score order, members then non-members, as every bootstrap of `@mia/metrics`) are shared by the
 * sets: each set's intervals equal `bootstrapAuc` and `bootstrapRocStatistic` of the best advantage
 * with the same options. Per resample: n draws, then one pass over each set's entries (internal).
 */
export function bootstrapAucAndAdvantageSets(
  fn: string,
  scoreSets: readonly Scores[],
  isMember: Membership,
  options: BootstrapOptions,
): Array<{ auc: BootstrapInterval; advantage: BootstrapInterval }> {
  const split = scoreSets.map((scores) => splitScores(fn, scores, isMember));
  const { resamples, confidence, uniform } = bootstrapSettings(fn, options);
  const numMembers = split[0]!.members.length;
  const numNonMembers = split[0]!.nonMembers.length;
  const sets = split.map(({ members, nonMembers }) => mergedEntries(sortedAscending(members), sortedAscending(nonMembers)));
  const draws = new Float64Array(numMembers + numNonMembers);
  const estimates = sets.map((entries) => aucAndBestAdvantage(entries, draws.fill(1), numMembers, numNonMembers));
  const samples = sets.map(() => [new Float64Array(resamples), new Float64Array(resamples)] as const);
  const memberDraws = draws.subarray(0, numMembers);
  const nonMemberDraws = draws.subarray(numMembers);
  for (let r = 0; r < resamples; r++) {
    countDraws(memberDraws, uniform);
    countDraws(nonMemberDraws, uniform);
    sets.forEach((entries, s) => {
      const [auc, advantage] = aucAndBestAdvantage(entries, draws, numMembers, numNonMembers);
      samples[s]![0][r] = auc;
      samples[s]![1][r] = advantage;
    });
  }
  return estimates.map(([auc, advantage], s) => ({
    auc: percentileInterval(auc, samples[s]![0], confidence),
    advantage: percentileInterval(advantage, samples[s]![1], confidence),
  }));
}
