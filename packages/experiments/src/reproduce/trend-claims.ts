import { kendallTau } from '@mia/metrics';
import type { CellFormat, Claim } from './types';
import { formatNumber, notEvaluated, notTestable } from './verdicts';

/** One point of a sweep: the knob value, the metric, and why it is excluded when the model collapsed. */
export interface TrendPoint {
  readonly x: number;
  readonly y: number;
  /** Set when the point's model collapsed (or failed): it is left out of the trend. */
  readonly collapsed?: string;
}

/** Options of {@link trendClaim}. */
export interface TrendClaimOptions {
  readonly statement: string;
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
}

/**
 * A trend claim ("X decreases as λ grows", docs/protocol.md §5.1) decided by Kendall's τ over the
 * non-collapsed points and its two-sided p-value (exact for n ≤ 10): holds when τ has the claimed
 * sign with p < 0.05, does not hold when it has the opposite sign with p < 0.05, else within
 * noise; not testable with fewer than 3 points, or with so few (n ≤ 4 at α = 0.05) that even a
 * perfect ordering is not significant. Never decided on two end points.
 */
export function trendClaim(o: TrendClaimOptions): Claim {
  if ('missing' in o.points) return notEvaluated(o.statement, o.points.missing);
  if (o.gate !== undefined) return notTestable(o.statement, o.gate);
  const kept = o.points.filter((p) => p.collapsed === undefined && Number.isFinite(p.y));
  const dropped = o.points.filter((p) => p.collapsed !== undefined).map((p) => `${o.knob} ${p.x}: ${p.collapsed}`);
  const shown = kept.map((p) => `${o.knob} ${p.x}: ${formatNumber(p.y, o.format)}`).join(', ');
  const excluded = dropped.length === 0 ? '' : `; left out: ${dropped.join('; ')}`;
  if (kept.length < 3) return notTestable(o.statement, `${kept.length} non-collapsed point(s), a trend needs ≥ 3 (${shown || 'none'}${excluded})`);
  const alpha = o.alpha ?? 0.05;
  // A claim that cannot hold: with n points even a perfect ordering has exact two-sided p = 2/n!.
  const best = smallestExactP(kept.length);
  if (best >= alpha)
    return notTestable(
      o.statement,
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
  return {
    statement: o.statement,
    verdict,
    evidence: `Kendall ${tauText} over ${kept.length} points, p = ${p.toPrecision(2)} (${method}; significant below ${alpha}); ${shown}${excluded}`,
  };
}

/** The exact two-sided p-value of Kendall's τ = ±1 over n distinct points: 2/n! (below 1e-6 past n = 10). */
function smallestExactP(n: number): number {
  let f = 1;
  for (let k = 2; k <= Math.min(n, 11); k++) f *= k;
  return Math.min(1, 2 / f);
}
