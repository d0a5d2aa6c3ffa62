import { betaQuantile, regularizedIncompleteBeta } from './incomplete-beta';
import { MetricsError } from './metrics-error';

/** Standard normal CDF Φ(x) (Abramowitz–Stegun 7.1.26 through erfc, |error| < 1.5e-7). */
function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * z);
  const erfc = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))) * Math.exp(-z * z);
  return x >= 0 ? 1 - erfc / 2 : erfc / 2;
}

/** Standard normal quantile Φ⁻¹(p) by bisection on {@link normalCdf} (bounded: 200 halvings of [−40, 40]). */
function normalQuantile(p: number): number {
  let lo = -40;
  let hi = 40;
  for (let i = 0; i < 200 && hi - lo > 1e-12; i++) {
    const mid = 0.5 * (lo + hi);
    if (normalCdf(mid) < p) lo = mid;
    else hi = mid;
  }
  return 0.5 * (lo + hi);
}

function checkDf(fn: string, df: number): void {
  if (typeof df !== 'number' || Number.isNaN(df) || df <= 0)
    throw new MetricsError(`${fn}: df must be a number > 0 (Infinity for the normal), got ${String(df)}`);
}

/**
 * The CDF of Student's t distribution with `df` degrees of freedom at `t`:
 * `P(T ≤ t) = 1 − ½ I_{df/(df+t²)}(df/2, ½)` for t ≥ 0 (and by symmetry below 0); `df = Infinity`
 * gives the standard normal. Non-integer df are allowed (Welch–Satterthwaite degrees of freedom).
 * @see Abramowitz & Stegun 26.7.1 (the t distribution through the incomplete beta function)
 * @throws MetricsError when `t` is NaN or `df` is not > 0.
 */
export function studentTCdf(t: number, df: number): number {
  checkDf('studentTCdf', df);
  if (typeof t !== 'number' || Number.isNaN(t)) throw new MetricsError(`studentTCdf: t must be a number, got ${String(t)}`);
  if (!Number.isFinite(df)) return normalCdf(t);
  if (!Number.isFinite(t)) return t > 0 ? 1 : 0;
  const tail = 0.5 * regularizedIncompleteBeta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

/**
 * The quantile of Student's t distribution with `df` degrees of freedom: the t with
 * `studentTCdf(t, df) = p`, through the Beta quantile (`t² = df (1/x − 1)`, x the Beta(df/2, ½)
 * quantile at 2·min(p, 1−p)); `df = Infinity` gives the normal quantile. E.g.
 * `studentTQuantile(0.975, 2)` = 4.3027, `studentTQuantile(0.975, 10)` = 2.2281.
 * @throws MetricsError when `p` is outside (0, 1) or `df` is not > 0.
 */
export function studentTQuantile(p: number, df: number): number {
  checkDf('studentTQuantile', df);
  if (typeof p !== 'number' || !(p > 0 && p < 1)) throw new MetricsError(`studentTQuantile: p must be in (0, 1), got ${String(p)}`);
  if (!Number.isFinite(df)) return normalQuantile(p);
  if (p === 0.5) return 0;
  const x = betaQuantile(2 * Math.min(p, 1 - p), df / 2, 0.5);
  const t = Math.sqrt(df * (1 / x - 1));
  return p > 0.5 ? t : -t;
}
