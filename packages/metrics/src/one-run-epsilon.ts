import { logGamma } from './incomplete-beta';
import { MetricsError } from './metrics-error';
import { checkOneRunCounts, significanceOf, type OneRunBoundOptions, type OneRunCounts } from './one-run-counts';
import { describe } from './validate';

/** Options of {@link oneRunEpsilon}. */
export interface OneRunEpsilonOptions extends OneRunBoundOptions {
  /** The δ of the (ε, δ)-DP hypothesis, in [0, 1). @default 0 */
  readonly delta?: number;
}

/**
 * The p-value of "≥ v correct of r guesses" under (ε, δ)-DP (Steinke et al. 2023: their main theorem
 * and its extension to δ > 0, as their appendix code `p_value_DP_audit` computes it):
 * `P[Binomial(r, q) ≥ v] + 2mδ·α`, q = e^ε/(1 + e^ε),
 * α = max over i ∈ [1, v] of `P[v − i ≤ Binomial(r, q) < v] / i`, capped at 1. Internal.
 */
export function oneRunPValue(m: number, r: number, v: number, epsilon: number, delta: number): number {
  if (v === 0) return 1;
  const logQ = -Math.log1p(Math.exp(-epsilon)); // ln q
  const log1mQ = -epsilon + logQ; // ln(1 − q)
  const logChooseBase = logGamma(r + 1);
  const logPmf = (k: number) => logChooseBase - logGamma(k + 1) - logGamma(r - k + 1) + k * logQ + (r - k) * log1mQ;
  // The tail Σ_{k ≥ v} pmf(k), summed from its largest term down in log space.
  let tail = 0;
  const top = Math.max(v, Math.min(r, Math.floor((r + 1) * Math.exp(logQ))));
  const logTop = logPmf(top);
  for (let k = v; k <= r; k++) tail += Math.exp(logPmf(k) - logTop);
  let p = Math.exp(logTop) * tail;
  if (delta > 0) {
    let below = 0; // P[v − i ≤ X < v]
    let alpha = 0;
    for (let i = 1; i <= v; i++) {
      below += Math.exp(logPmf(v - i));
      alpha = Math.max(alpha, below / i);
    }
    p += alpha * delta * 2 * m;
  }
  return Math.min(p, 1);
}

/**
 * The one-run lower bound on ε (Steinke, Nasr & Jagielski 2023): with m canaries each included
 * independently with probability ½ and v correct of r guesses, the largest ε such that an (ε, δ)-DP
 * training would give v or more correct guesses with probability below β = 1 − confidence (the
 * p-value of their main theorem, with δ > 0 handled as in their appendix code; see
 * {@link oneRunPValue}). Found by
 * bisection on the bounded bracket [0, logit(β^{1/r})] — at its top even r correct of r guesses are
 * not significant — to 1e-12 (the paper's code grows the bracket in steps of 1 and halves it 30
 * times). 0 when no ε > 0 is rejected, so scores unrelated to inclusion give 0 (a positive bound at most
 * with probability β).
 *
 * The bound can never exceed its value at v = r: for m = r = 1000, δ = 0, 95 % it is
 * logit(0.05^{1/1000}) = 5.81, so an audit with 1,000 guesses cannot prove ε = 8.
 *
 * @param counts - {@link OneRunCounts}: canaries m, guesses r, correct v.
 * @param options - `confidence` (0.95) and `delta` (0).
 * @returns ε ≥ 0 (nats).
 * @throws MetricsError on counts that are not integers with 0 ≤ v ≤ r ≤ m, m ≥ 1, a confidence
 *   outside (0, 1), or δ outside [0, 1).
 * @see Steinke, Nasr & Jagielski (2023), "Privacy Auditing with One (1) Training Run", NeurIPS, Algorithm 1, the main theorem and the appendix code (`p_value_DP_audit`, `get_eps_audit`) (arXiv:2305.08846)
 */
export function oneRunEpsilon(counts: OneRunCounts, options: OneRunEpsilonOptions = {}): number {
  const fn = 'oneRunEpsilon';
  const { canaries: m, guesses: r, correct: v } = checkOneRunCounts(fn, counts);
  const beta = significanceOf(fn, options);
  const delta = options.delta ?? 0;
  if (typeof delta !== 'number' || !(delta >= 0 && delta < 1)) throw new MetricsError(`${fn}: delta must be a number in [0, 1), got ${describe(delta)}`);
  return epsilonFromCounts(m, r, v, delta, beta);
}

/** {@link oneRunEpsilon} without validation (internal). */
export function epsilonFromCounts(m: number, r: number, v: number, delta: number, beta: number): number {
  const rejects = (epsilon: number) => oneRunPValue(m, r, v, epsilon, delta) < beta;
  if (v === 0 || !rejects(0)) return 0;
  let lo = 0;
  let hi = Math.log(beta ** (1 / r) / -Math.expm1(Math.log(beta) / r)) + 1; // logit(β^{1/r}) + 1
  for (let i = 0; i < 200 && hi - lo > 1e-12; i++) {
    const mid = 0.5 * (lo + hi);
    if (rejects(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}
