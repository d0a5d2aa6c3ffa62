/**
 * Tie blocks of a scored member/non-member set, in descending score order: block `b` holds every
 * example whose score equals `values[b]`, `members[b]` of them members and `nonMembers[b]`
 * non-members (counts, or bootstrap multiplicities). Internal to `@mia/metrics`.
 */
export interface ScoreBlocks {
  values: Float64Array;
  members: Float64Array;
  nonMembers: Float64Array;
  /** Number of blocks (the arrays may be longer). */
  length: number;
  totalMembers: number;
  totalNonMembers: number;
}

/** Sorted ascending copy of `values`. */
export function sortedAscending(values: Float64Array): Float64Array {
  return Float64Array.from(values).sort();
}

/**
 * Binary search on an ascending array: the number of entries `< value` (the first index with
 * `sorted[i] ≥ value`). Used by the O(n log n) threshold and RMIA scoring.
 */
export function lowerBound(sorted: Float64Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Merges two ascending-sorted score arrays into descending tie blocks in O(n). `memberWeights` and
 * `nonMemberWeights` give each entry's multiplicity (1 when omitted); a value whose entries all
 * have weight 0 (absent from a bootstrap resample) opens no block.
 */
export function scoreBlocks(members: Float64Array, nonMembers: Float64Array, memberWeights?: Float64Array, nonMemberWeights?: Float64Array): ScoreBlocks {
  const capacity = members.length + nonMembers.length;
  const values = new Float64Array(capacity);
  const memberCounts = new Float64Array(capacity);
  const nonMemberCounts = new Float64Array(capacity);
  let i = members.length - 1;
  let j = nonMembers.length - 1;
  let length = 0;
  let totalMembers = 0;
  let totalNonMembers = 0;
  while (i >= 0 || j >= 0) {
    const a = i >= 0 ? members[i]! : -Infinity;
    const b = j >= 0 ? nonMembers[j]! : -Infinity;
    // Take the larger head, then drain both arrays of that value (`===` also joins -0 and +0).
    const v = a > b ? a : b;
    let m = 0;
    let n = 0;
    for (; i >= 0 && members[i] === v; i--) m += memberWeights ? memberWeights[i]! : 1;
    for (; j >= 0 && nonMembers[j] === v; j--) n += nonMemberWeights ? nonMemberWeights[j]! : 1;
    if (m + n === 0) continue;
    values[length] = v;
    memberCounts[length] = m;
    nonMemberCounts[length] = n;
    length++;
    totalMembers += m;
    totalNonMembers += n;
  }
  return { values, members: memberCounts, nonMembers: nonMemberCounts, length, totalMembers, totalNonMembers };
}

/** Mann–Whitney AUC of tie blocks: P(member > non-member) + ½·P(tie). */
export function aucOfBlocks(blocks: ScoreBlocks): number {
  let u = 0;
  let nonMembersBelow = blocks.totalNonMembers;
  for (let b = 0; b < blocks.length; b++) {
    const m = blocks.members[b]!;
    const n = blocks.nonMembers[b]!;
    nonMembersBelow -= n;
    u += m * nonMembersBelow + 0.5 * m * n;
  }
  return u / (blocks.totalMembers * blocks.totalNonMembers);
}
