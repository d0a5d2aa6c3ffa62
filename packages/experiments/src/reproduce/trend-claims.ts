import { kendallTau } from '@mia/metrics';
import type { CellFormat, Claim, Decision, UndecidedDecision } from './types';
import { formatNumber, isDecided } from './verdicts';

/** One point of a sweep: the knob value, the metric, and why it is excluded when the model collapsed. */
export interface TrendPoint {
  readonly x: number;
  readonly y: number;
  /** Set when the point's model collapsed (or failed): it is left out of the trend. */
  readonly collapsed?: string;
}

/** Options of {@link trendDecision}. */
export interface TrendOptions {
  /** The sweep's points, or why the sweep is missing (→ "not evaluated"). */
  readonly points: readonly TrendPoint[] | { readonly missing: string };
  /** 'increasing': y rises with x; 'decreasing': y falls as x grows. */
  readonly direction: 'increasing' | 'decreasing';
  readonly format: CellFormat;
  /** Name of the knob in the evidence (e.g. "α"). */
  readonly knob: string;
  /** Why the whole sweep is not testable (e.g. the undefended model is out of regime), or undefined. */
  readonly gate?: string;
  /** Significance level of the test. @default 0.05 */
  readonly alpha?: number;
  /**
   * Set when the points are not independent measurements (e.g. consecutive epochs of one training
   * run: each model is the previous one plus a few steps), why: Kendall's p-value assumes
   * independent points, so the claim is "not testable" with this reason. Leave unset only when each
   * point is its own model (a sweep of separately trained models).
   */
  readonly dependence?: string;
}

/** Options of {@link trendClaim}: a {@link TrendOptions} with the claim's statement. */
export interface TrendClaimOptions extends TrendOptions {
  readonly statement: string;
}

const untestable = (reason: string): UndecidedDecision => ({
  verdict: 'not testable',
  kind: 'not-testable',
  reason,
  evidence: `not testable at this scale: ${reason}`,
});

/**
 * A trend claim ("X decreases as λ grows", docs/protocol.md §5.1) over independently trained models,
 * decided by {@link trendDecision}; the claim keeps the decision when the trend was decided.
 */
export function trendClaim(o: TrendClaimOptions): Claim {
  const decision = trendDecision(o);
  const claim = { statement: o.statement, verdict: decision.verdict, evidence: decision.evidence };
  return isDecided(decision) ? { ...claim, decision } : claim;
}

/**
 * The decision on a trend ("X decreases as λ grows", docs/protocol.md §5.1) over independently trained models, decided by Kendall's τ over the
 * non-collapsed points and its two-sided p-value (exact for n ≤ 10): holds when τ has the claimed
 * sign with p < 0.05, does not hold when it has the opposite sign with p < 0.05, else within
 * noise; not testable with fewer than 3 points, or with so few (n ≤ 4 at α = 0.05) that even a
 * perfect ordering is not significant, or when the points are not independent (`dependence`). Never
 * decided on two end points. The decision records τ (as Δ), its SE under no trend, z and p.
 */
export function trendDecision(o: TrendOptions): Decision {
  if ('missing' in o.points) return { verdict: 'not evaluated', kind: 'not-evaluated', reason: o.points.missing, evidence: o.points.missing };
  if (o.gate !== undefined) return untestable(o.gate);
  if (o.dependence !== undefined) {
    const ys = o.points.filter((p) => Number.isFinite(p.y)).map((p) => `${o.knob} ${p.x}: ${formatNumber(p.y, o.format)}`);
    return untestable(`${o.dependence} (${ys.join(', ')})`);
  }
  const kept = o.points.filter((p) => p.collapsed === undefined && Number.isFinite(p.y));
  const dropped = o.points.filter((p) => p.collapsed !== undefined).map((p) => `${o.knob} ${p.x}: ${p.collapsed}`);
  const shown = kept.map((p) => `${o.knob} ${p.x}: ${formatNumber(p.y, o.format)}`).join(', ');
  const excluded = dropped.length === 0 ? '' : `; left out: ${dropped.join('; ')}`;
  if (kept.length < 3) return untestable(`${kept.length} non-collapsed point(s), a trend needs ≥ 3 (${shown || 'none'}${excluded})`);
  const alpha = o.alpha ?? 0.05;
  // A claim that cannot hold: with n points even a perfect ordering has exact two-sided p = 2/n!.
  const best = smallestExactP(kept.length);
  if (best >= alpha)
    return untestable(
      `${kept.length} non-collapsed points cannot show a trend at p < ${alpha} (a perfect ordering gives p = 2/${kept.length}! = ${best.toPrecision(2)}; ${shown}${excluded})`,
    );
  const { tau, p, method } = kendallTau(
    kept.map((q) => q.x),
    kept.map((q) => q.y),
  );
  const claimed = o.direction === 'increasing' ? 1 : -1;
  const sign = Number.isNaN(tau) ? 0 : Math.sign(tau);
  const verdict = p < alpha && sign === claimed ? 'holds' : p < alpha && sign === -claimed ? 'does not hold' : 'within noise';
  const tauText = Number.isNaN(tau) ? 'τ undefined (constant values)' : `τ = ${tau >= 0 ? '+' : '−'}${Math.abs(tau).toFixed(2)}`;
  const n = kept.length;
  // The SE of τ under no trend (normal approximation, no ties): sqrt(2(2n + 5) / (9n(n − 1))).
  const se = Math.sqrt((2 * (2 * n + 5)) / (9 * n * (n - 1)));
  const evidence = `Kendall ${tauText} over ${n} points, p = ${p.toPrecision(2)} (${method}; significant below ${alpha}); ${shown}${excluded}`;
  return {
    verdict,
    evidence,
    delta: Number.isNaN(tau) ? 0 : tau,
    se,
    seSource: `Kendall's τ under no trend, sqrt(2(2n+5)/(9n(n−1))) with n = ${n}; decided by the ${method} p-value`,
    direction: o.direction === 'increasing' ? 'greater' : 'less',
    offset: 0,
    z: (claimed * (Number.isNaN(tau) ? 0 : tau)) / se,
    p,
  };
}

/** The exact two-sided p-value of Kendall's τ = ±1 over n distinct points: 2/n! (below 1e-6 past n = 10). */
function smallestExactP(n: number): number {
  let f = 1;
  for (let k = 2; k <= Math.min(n, 11); k++) f *= k;
  return Math.min(1, 2 / f);
}
