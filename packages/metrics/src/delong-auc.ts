import type { ConfidenceInterval } from './clopper-pearson';
import { MetricsError } from './metrics-error';
import { phiInverse } from './normal-distribution';
import { lowerBound } from './score-blocks';
import { checkSameLength, describe, toMembership, toNumbers } from './validate';

/** A DeLong interval: the estimate, its normal-approximation bounds and its standard error. */
export interface DelongInterval extends ConfidenceInterval {
  /** The DeLong standard error of the estimate. */
  se: number;
}

/** Options of {@link delongAuc} and {@link delongAucDifference}. */
export interface DelongOptions {
  /** Two-sided confidence level of the interval. @default 0.95 */
  confidence?: number;
  /**
   * A group per example (e.g. the fold of cross-fitted scores, each fold scored by its own model):
   * the AUC (or difference) is computed within each group and averaged, so that scores of
   * different models are never ranked against each other. Every group must hold members and
   * non-members. @default one group
   */
  groups?: ArrayLike<number>;
  /**
   * How the groups' estimates combine into the SE of their mean: `'dependent'`, the mean of their
   * SEs, which holds whatever their correlation (Cauchy–Schwarz; cross-fitted folds are correlated:
   * each fold's model trained on the others, and the naive variance is too small); `'independent'`,
   * `√(Σ var_k) / K`. @default 'dependent'
   */
  combine?: 'dependent' | 'independent';
}

/** Number of entries of an ascending array `≤ value`. */
function upperBound(sorted: Float64Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * DeLong's structural components of one score set: per member the fraction of non-members it beats
 * (ties ½), per non-member the fraction of members that beat it; their means are both the AUC.
 */
function components(members: Float64Array, nonMembers: Float64Array): { v10: Float64Array; v01: Float64Array; auc: number } {
  const sortedMembers = Float64Array.from(members).sort();
  const sortedNonMembers = Float64Array.from(nonMembers).sort();
  const v10 = Float64Array.from(members, (x) => (lowerBound(sortedNonMembers, x) + upperBound(sortedNonMembers, x)) / 2 / nonMembers.length);
  const v01 = Float64Array.from(nonMembers, (y) => 1 - (lowerBound(sortedMembers, y) + upperBound(sortedMembers, y)) / 2 / members.length);
  let sum = 0;
  for (const v of v10) sum += v;
  return { v10, v01, auc: sum / members.length };
}

/** Sample covariance (n − 1 denominator) of two equally long arrays; 0 for fewer than 2 entries. */
function covariance(a: Float64Array, b: Float64Array): number {
  if (a.length < 2) return 0;
  let meanA = 0;
  let meanB = 0;
  for (let i = 0; i < a.length; i++) [meanA, meanB] = [meanA + a[i]!, meanB + b[i]!];
  [meanA, meanB] = [meanA / a.length, meanB / a.length];
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i]! - meanA) * (b[i]! - meanB);
  return sum / (a.length - 1);
}

function zOf(fn: string, confidence: number | undefined): { z: number; level: number } {
  const level = confidence ?? 0.95;
  if (typeof level !== 'number' || !(level > 0 && level < 1)) throw new MetricsError(`${fn}: confidence must be a number in (0, 1), got ${describe(level)}`);
  return { z: phiInverse(1 - (1 - level) / 2), level };
}

/** The examples of each group (all in one group without `groups`). */
function groupsOf(fn: string, length: number, groups: ArrayLike<number> | undefined): number[][] {
  if (groups === undefined) {
    const all = new Array<number>(length);
    for (let i = 0; i < length; i++) all[i] = i;
    return [all];
  }
  checkSameLength(fn, 'scores', { length }, 'options.groups', groups);
  const byGroup = new Map<number, number[]>();
  for (let i = 0; i < length; i++) {
    const g = groups[i]!;
    const list = byGroup.get(g);
    if (list === undefined) byGroup.set(g, [i]);
    else list.push(i);
  }
  return [...byGroup.keys()].sort((a, b) => a - b).map((g) => byGroup.get(g)!);
}

/** Members' and non-members' values among `rows` (validated before: no NaN, 0/1 labels). @throws MetricsError when a side is empty. */
function split(fn: string, rows: number[], labels: Uint8Array, values: Float64Array): { members: Float64Array; nonMembers: Float64Array } {
  let m = 0;
  for (const i of rows) m += labels[i]!;
  if (m === 0 || m === rows.length)
    throw new MetricsError(`${fn}: isMember must contain both members and non-members, got ${m} members and ${rows.length - m} non-members`);
  const members = new Float64Array(m);
  const nonMembers = new Float64Array(rows.length - m);
  let [j, k] = [0, 0];
  for (const i of rows) {
    if (labels[i] === 1) members[j++] = values[i]!;
    else nonMembers[k++] = values[i]!;
  }
  return { members, nonMembers };
}

/** Estimate and variance of one group: the AUC of `a` (minus that of `b`, when given) over the examples `rows`. */
function groupEstimate(fn: string, rows: number[], labels: Uint8Array, a: Float64Array, b: Float64Array | undefined): { estimate: number; variance: number } {
  const pick = (values: Float64Array) => split(fn, rows, labels, values);
  const sa = pick(a);
  const ca = components(sa.members, sa.nonMembers);
  const m = sa.members.length;
  const n = sa.nonMembers.length;
  if (b === undefined) return { estimate: ca.auc, variance: covariance(ca.v10, ca.v10) / m + covariance(ca.v01, ca.v01) / n };
  const sb = pick(b);
  const cb = components(sb.members, sb.nonMembers);
  const part = (x: Float64Array, y: Float64Array, size: number) => (covariance(x, x) + covariance(y, y) - 2 * covariance(x, y)) / size;
  return { estimate: ca.auc - cb.auc, variance: Math.max(0, part(ca.v10, cb.v10, m) + part(ca.v01, cb.v01, n)) };
}

/** The group-averaged estimate and its SE (internal). */
function averaged(fn: string, labels: Uint8Array, a: Float64Array, b: Float64Array | undefined, options: DelongOptions): { estimate: number; se: number } {
  const combine = options.combine ?? 'dependent';
  if (combine !== 'dependent' && combine !== 'independent')
    throw new MetricsError(`${fn}: options.combine must be 'dependent' or 'independent', got ${describe(combine)}`);
  const parts = groupsOf(fn, labels.length, options.groups).map((rows) => groupEstimate(fn, rows, labels, a, b));
  const k = parts.length;
  const se = combine === 'dependent' ? parts.reduce((s, p) => s + Math.sqrt(p.variance), 0) / k : Math.sqrt(parts.reduce((s, p) => s + p.variance, 0)) / k;
  return { estimate: parts.reduce((s, p) => s + p.estimate, 0) / k, se };
}

/**
 * ROC-AUC (ties ½) with DeLong's standard error and a normal-approximation interval, clipped to
 * [0, 1]: O(n log n) and no resampling, so it costs a sort where a bootstrap costs a thousand.
 * With `groups` (cross-fitted scores), the average of the groups' AUCs ({@link DelongOptions.combine}). Conventions: higher score =
 * more likely member.
 *
 * @param scores - One score per example (not NaN).
 * @param isMember - `1`/`true` member, `0`/`false` non-member.
 * @param options - {@link DelongOptions}.
 * @returns The AUC, its bounds, the confidence and the SE.
 * @throws MetricsError on NaN scores, bad labels, one class only (in any group), different lengths or a confidence outside (0, 1).
 * @see DeLong, DeLong & Clarke-Pearson 1988, "Comparing the areas under two or more correlated ROC curves", Biometrics 44(3);
 *   LeDell, Petersen & van der Laan 2015 (cross-validated AUC: the average of the folds' AUCs).
 */
export function delongAuc(scores: ArrayLike<number>, isMember: ArrayLike<number | boolean>, options: DelongOptions = {}): DelongInterval {
  const fn = 'delongAuc';
  const { z, level } = zOf(fn, options.confidence);
  const values = toNumbers(fn, 'scores', scores);
  const labels = toMembership(fn, isMember, values.length);
  const { estimate, se } = averaged(fn, labels, values, undefined, options);
  return { estimate, lower: Math.max(0, estimate - z * se), upper: Math.min(1, estimate + z * se), confidence: level, se };
}

/**
 * The difference `AUC(a) − AUC(b)` of two score sets of the same examples, with DeLong's paired
 * standard error (the covariance of the two AUCs over the same members and non-members) and a
 * normal-approximation interval: whether one scorer beats the other beyond noise. With `groups`,
 * the average of the groups' differences.
 *
 * @param scoresA - Scores of the first scorer, one per example.
 * @param scoresB - Scores of the second scorer on the same examples, in the same order.
 * @param isMember - `1`/`true` member, `0`/`false` non-member.
 * @param options - {@link DelongOptions}.
 * @returns The difference, its bounds (in [−1, 1]), the confidence and the SE.
 * @throws MetricsError on NaN scores, bad labels, one class only (in any group), different lengths or a confidence outside (0, 1).
 * @see DeLong, DeLong & Clarke-Pearson 1988, the variance of a contrast of correlated AUCs.
 */
export function delongAucDifference(
  scoresA: ArrayLike<number>,
  scoresB: ArrayLike<number>,
  isMember: ArrayLike<number | boolean>,
  options: DelongOptions = {},
): DelongInterval {
  const fn = 'delongAucDifference';
  const { z, level } = zOf(fn, options.confidence);
  const a = toNumbers(fn, 'scoresA', scoresA);
  checkSameLength(fn, 'scoresA', a, 'scoresB', scoresB);
  const b = toNumbers(fn, 'scoresB', scoresB);
  const labels = toMembership(fn, isMember, a.length, 'scoresA');
  const { estimate, se } = averaged(fn, labels, a, b, options);
  return { estimate, lower: Math.max(-1, estimate - z * se), upper: Math.min(1, estimate + z * se), confidence: level, se };
}
