import { betaQuantile, regularizedIncompleteBeta } from './incomplete-beta';
import { MetricsError } from './metrics-error';
import { phi, phiInverse } from './normal-distribution';

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
  if (!Number.isFinite(df)) return phi(t);
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
  if (!Number.isFinite(df)) return phiInverse(p);
  if (p === 0.5) return 0;
  const x = betaQuantile(2 * Math.min(p, 1 - p), df / 2, 0.5);
  const t = Math.sqrt(df * (1 / x - 1));
  return p > 0.5 ? t : -t;
}
