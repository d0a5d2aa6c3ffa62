import { MetricsError } from './metrics-error';
import { aucOfBlocks, scoreBlocks } from './score-blocks';
import { rocOfBlocks } from './roc-curve';
import { seededUniform } from './seeded-uniform';
import { checkInteger, describe, toNumbers } from './validate';

/** One stratified resample: the multiplicity of every member and every non-member, in input order. */
export interface StratifiedResample {
  readonly members: Float64Array;
  readonly nonMembers: Float64Array;
}

/** Options of {@link stratifiedBootstrapSe}. */
export interface StratifiedBootstrapOptions {
  /** Number of resamples. @default 200 */
  readonly resamples?: number;
  /** Seed of {@link seededUniform}. @default 0 */
  readonly seed?: number;
}

/**
 * Bootstrap standard errors of several statistics computed **jointly** on the same stratified
 * resamples: members and non-members are each drawn with replacement to their own counts (as the
 * percentile intervals of `bootstrap.ts`), and every statistic of one resample sees the same draw, so
 * a statistic combining two others (e.g. P1 of accuracy and advantage) gets the SE of the
 * combination. The SE is the sample standard deviation (n − 1) of the resampled values; a statistic
 * that returns a non-finite value in some resample gets the SE of its finite values (NaN if fewer than 2).
 *
 * @param numMembers - Number of members (≥ 1).
 * @param numNonMembers - Number of non-members (≥ 1).
 * @param statistics - Maps a resample (index-aligned multiplicities) to named values.
 * @param options - {@link StratifiedBootstrapOptions}.
 * @returns The SE of each named value.
 * @throws MetricsError on bad counts, resamples or seed, or a statistics function that is not one.
 * @see docs/protocol.md §5 (uncertainty of the reported metrics).
 */
export function stratifiedBootstrapSe(
  numMembers: number,
  numNonMembers: number,
  statistics: (resample: StratifiedResample) => Record<string, number>,
  { resamples = 200, seed = 0 }: StratifiedBootstrapOptions = {},
): Record<string, number> {
  const fn = 'stratifiedBootstrapSe';
  checkInteger(fn, 'numMembers', numMembers, 1);
  checkInteger(fn, 'numNonMembers', numNonMembers, 1);
  checkInteger(fn, 'resamples', resamples, 2);
  checkInteger(fn, 'seed', seed, -(2 ** 53) + 1);
  if (typeof statistics !== 'function') throw new MetricsError(`${fn}: statistics must be a function, got ${describe(statistics)}`);
  const uniform = seededUniform(seed);
  const members = new Float64Array(numMembers);
  const nonMembers = new Float64Array(numNonMembers);
  const sums = new Map<string, { n: number; sum: number; sumSq: number }>();
  for (let r = 0; r < resamples; r++) {
    draw(members, uniform);
    draw(nonMembers, uniform);
    for (const [key, value] of Object.entries(statistics({ members, nonMembers }))) {
      const acc = sums.get(key) ?? { n: 0, sum: 0, sumSq: 0 };
      if (Number.isFinite(value)) {
        acc.n += 1;
        acc.sum += value;
        acc.sumSq += value * value;
      }
      sums.set(key, acc);
    }
  }
  const out: Record<string, number> = {};
  for (const [key, { n, sum, sumSq }] of sums) {
    out[key] = n < 2 ? NaN : Math.sqrt(Math.max(0, (sumSq - (sum * sum) / n) / (n - 1)));
  }
  return out;
}

function draw(weights: Float64Array, uniform: () => number): void {
  weights.fill(0);
  const n = weights.length;
  for (let i = 0; i < n; i++) {
    const k = Math.floor(uniform() * n);
    weights[k] = weights[k]! + 1;
  }
}

/** Weighted ROC statistics of fixed member / non-member scores, for {@link stratifiedBootstrapSe}. */
export interface WeightedScores {
  /** AUC (ties ½) with each example counted `weight` times. */
  auc(resample: StratifiedResample): number;
  /** Best-threshold advantage max(TPR − FPR) with each example counted `weight` times (the threshold re-chosen). */
  bestAdvantage(resample: StratifiedResample): number;
  /** Both at the cost of one: the AUC and the best-threshold advantage of the same resample. */
  both(resample: StratifiedResample): { auc: number; bestAdvantage: number };
}

/**
 * Prepares member and non-member scores (higher = more likely member) for weighted AUC and
 * best-threshold advantage: sorted once, each resample then costs O(n).
 * @throws MetricsError when a score array is empty or holds NaN.
 */
export function weightedScores(memberScores: ArrayLike<number>, nonMemberScores: ArrayLike<number>): WeightedScores {
  const fn = 'weightedScores';
  const m = toNumbers(fn, 'memberScores', memberScores);
  const n = toNumbers(fn, 'nonMemberScores', nonMemberScores);
  const ascending = (v: Float64Array) => (a: number, b: number) => (v[a]! < v[b]! ? -1 : v[a]! > v[b]! ? 1 : 0);
  const orderM = Array.from(m.keys()).sort(ascending(m));
  const orderN = Array.from(n.keys()).sort(ascending(n));
  const sortedM = Float64Array.from(orderM, (i) => m[i]!);
  const sortedN = Float64Array.from(orderN, (i) => n[i]!);
  const wM = new Float64Array(m.length);
  const wN = new Float64Array(n.length);
  const blocks = (r: StratifiedResample) => {
    if (r.members.length !== m.length || r.nonMembers.length !== n.length) {
      throw new MetricsError(
        `${fn}: resample sizes must be ${m.length} members and ${n.length} non-members, got ${r.members.length} and ${r.nonMembers.length}`,
      );
    }
    orderM.forEach((i, k) => (wM[k] = r.members[i]!));
    orderN.forEach((i, k) => (wN[k] = r.nonMembers[i]!));
    return scoreBlocks(sortedM, sortedN, wM, wN);
  };
  const bestOf = (b: ReturnType<typeof blocks>) => {
    const roc = rocOfBlocks(b);
    let best = 0;
    for (let k = 0; k < roc.tpr.length; k++) best = Math.max(best, roc.tpr[k]! - roc.fpr[k]!);
    return best;
  };
  return {
    auc: (r) => aucOfBlocks(blocks(r)),
    bestAdvantage: (r) => bestOf(blocks(r)),
    both: (r) => {
      const b = blocks(r);
      return { auc: aucOfBlocks(b), bestAdvantage: bestOf(b) };
    },
  };
}

/** Weighted mean of `values` (index-aligned with `weights`); NaN when the weights sum to 0. */
export function weightedMean(values: ArrayLike<number>, weights: ArrayLike<number>): number {
  let sum = 0;
  let total = 0;
  for (let i = 0; i < weights.length; i++) {
    sum += weights[i]! * values[i]!;
    total += weights[i]!;
  }
  return total === 0 ? NaN : sum / total;
}
