import { toNumbers } from './validate';

/** Arithmetic mean of a non-empty array (internal). */
export function mean(values: Float64Array): number {
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/**
 * PAST's loss gap `G = | mean_{S_m} CE − mean_{S_n} CE |`: the absolute difference between the
 * mean per-example loss of members and of non-members (e.g. target_train vs target_test).
 *
 * @param memberLosses - Per-example losses of members (non-empty, finite).
 * @param nonMemberLosses - Per-example losses of non-members (non-empty, finite).
 * @returns The loss gap, ≥ 0.
 * @throws MetricsError when an array is empty or holds a NaN or infinite value.
 * @see docs/protocol.md §5 "Loss gap" (PAST §3.1).
 */
export function lossGap(memberLosses: ArrayLike<number>, nonMemberLosses: ArrayLike<number>): number {
  const members = toNumbers('lossGap', 'memberLosses', memberLosses, { finite: true });
  const nonMembers = toNumbers('lossGap', 'nonMemberLosses', nonMemberLosses, { finite: true });
  return Math.abs(mean(members) - mean(nonMembers));
}
