import { MetricsError } from './metrics-error';
import { toNumbers } from './validate';

/** Kendall's rank correlation of paired samples with its two-sided significance. */
export interface KendallTau {
  /** τ-b in [−1, 1] (ties in either sample corrected for); NaN when a sample is constant. */
  readonly tau: number;
  /** Two-sided p-value of "no association": exact (every permutation) for n ≤ 10, normal approximation above. */
  readonly p: number;
  /** Number of pairs. */
  readonly n: number;
  /** Which test gave `p`. */
  readonly method: 'exact' | 'normal';
}

/** S = Σ_{i<j} sign(xi − xj)·sign(yi − yj). */
function concordance(x: Float64Array, y: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) for (let j = i + 1; j < x.length; j++) s += Math.sign(x[i]! - x[j]!) * Math.sign(y[i]! - y[j]!);
  return s;
}

/** Σ over tie groups of f(group size). */
function tieSum(v: Float64Array, f: (t: number) => number): number {
  const counts = new Map<number, number>();
  for (const value of v) counts.set(value, (counts.get(value) ?? 0) + 1);
  let sum = 0;
  for (const t of counts.values()) sum += f(t);
  return sum;
}

/** Visits every permutation of `a` in place (Heap's algorithm). */
function permutations(a: number[], visit: (p: readonly number[]) => void): void {
  const c = new Array<number>(a.length).fill(0);
  visit(a);
  for (let i = 1; i < a.length;) {
    if (c[i]! < i) {
      const k = i % 2 === 0 ? 0 : c[i]!;
      [a[k], a[i]] = [a[i]!, a[k]!];
      visit(a);
      c[i]! += 1;
      i = 1;
    } else {
      c[i] = 0;
      i += 1;
    }
  }
}

/** Standard normal upper tail P(Z > z) (Abramowitz–Stegun 7.1.26 erfc, |error| < 1.5e-7). */
function normalUpperTail(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erfc = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))) * Math.exp(-x * x);
  return z >= 0 ? erfc / 2 : 1 - erfc / 2;
}

/**
 * Kendall's τ-b of paired samples and the two-sided p-value of the null "y is unrelated to x". For
 * n ≤ 10 the p-value is exact: the fraction of the n! orderings of `y` over `x` whose |S| is at least the
 * observed one (S = concordant − discordant pairs; ties kept as they are). Above, S is compared with a
 * normal distribution of the tie-corrected variance
 * `[n(n−1)(2n+5) − Σt(t−1)(2t+5) − Σu(u−1)(2u+5)] / 18` (Kendall 1970, ch. 4). Used for the trend
 * claims of the reproductions ("X decreases as λ grows").
 *
 * @param x - The first sample (e.g. the knob of a sweep).
 * @param y - The second sample, same length (e.g. a metric at each knob value).
 * @returns τ-b, p, n and the method.
 * @throws MetricsError when the lengths differ, fewer than 2 pairs are given, or a value is NaN.
 * @see docs/protocol.md §5 (trend claims).
 */
export function kendallTau(x: ArrayLike<number>, y: ArrayLike<number>): KendallTau {
  const fn = 'kendallTau';
  const xs = toNumbers(fn, 'x', x);
  const ys = toNumbers(fn, 'y', y);
  if (xs.length !== ys.length) throw new MetricsError(`${fn}: x and y must have the same length, got ${xs.length} and ${ys.length}`);
  const n = xs.length;
  if (n < 2) throw new MetricsError(`${fn}: need at least 2 pairs, got ${n}`);
  const s = concordance(xs, ys);
  const pairs = (n * (n - 1)) / 2;
  const tiesX = tieSum(xs, (t) => (t * (t - 1)) / 2);
  const tiesY = tieSum(ys, (t) => (t * (t - 1)) / 2);
  const tau = s / Math.sqrt((pairs - tiesX) * (pairs - tiesY));
  if (!Number.isFinite(tau)) return { tau: NaN, p: 1, n, method: n <= 10 ? 'exact' : 'normal' };
  if (n <= 10) {
    let extreme = 0;
    let total = 0;
    permutations(Array.from(ys), (perm) => {
      total += 1;
      if (Math.abs(concordance(xs, perm)) >= Math.abs(s) - 1e-9) extreme += 1;
    });
    return { tau, p: extreme / total, n, method: 'exact' };
  }
  const v = (k: number) => k * (k - 1) * (2 * k + 5);
  const variance = (v(n) - tieSum(xs, v) - tieSum(ys, v)) / 18;
  return { tau, p: Math.min(1, 2 * normalUpperTail(Math.abs(s) / Math.sqrt(variance))), n, method: 'normal' };
}
