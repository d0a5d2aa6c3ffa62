import { MetricsError } from './metrics-error';
import { epsilonOfMu } from './gaussian-dp';
import { phi, phiInverse } from './normal-distribution';
import { checkOneRunCounts, significanceOf, type OneRunBoundOptions, type OneRunCounts } from './one-run-counts';
import { describe } from './validate';

/** Options of {@link oneRunGdp}. */
export interface OneRunGdpOptions extends OneRunBoundOptions {
  /** The δ at which the μ lower bound is also given as an ε (`epsilon`), in (0, 1). */
  readonly delta: number;
}

/** Result of {@link oneRunGdp}. */
export interface OneRunGdp {
  /** The lower bound on μ: no μ′-GDP training with μ′ < μ gives these counts but with probability below β. */
  readonly mu: number;
  /** ε of μ-GDP at `delta` ({@link gdpEpsilon}); 0 when μ = 0. */
  readonly epsilon: number;
}

/**
 * True when v correct of r guesses among m canaries reject "the training is μ-GDP" at significance
 * β: the recursion `audit_rh_with_cap` of Mahloujifar, Melis & Chaudhuri (2024) for membership
 * (alphabet size k = 2) with the GDP trade-off curve, whose inverse blow-up is
 * x ↦ Φ(Φ⁻¹(x) − μ). Starting from r_v = β·v/m, h_v = β·(r − v)/m, for i = v − 1 … 0:
 * h_i = max(h_{i+1}, Φ(Φ⁻¹(r_{i+1}) − μ)), r_i = min(r_{i+1} + i/(r − i)·(h_i − h_{i+1}), 1);
 * rejected when r_0 + h_0 > r/m. Once h stops growing neither value changes again, so the loop stops
 * there (as jax_privacy's port does). Internal.
 */
export function rejectsGdp(mu: number, m: number, r: number, v: number, beta: number): boolean {
  const inverseBlowUp = mu === 0 ? (x: number) => x : (x: number) => phi(phiInverse(x) - mu);
  let right = (beta * v) / m;
  let wrong = (beta * (r - v)) / m;
  for (let i = v - 1; i >= 0; i--) {
    const next = Math.max(wrong, inverseBlowUp(right));
    if (next === wrong) break;
    right = Math.min(right + (i / (r - i)) * (next - wrong), 1);
    wrong = next;
  }
  return right + wrong > r / m;
}

/**
 * The one-run lower bound on μ of Gaussian differential privacy (Mahloujifar, Melis & Chaudhuri
 * 2024, "Auditing f-Differential Privacy in One Run", with the trade-off curve G_μ): from the same
 * guessing game as {@link oneRunEpsilon} (m canaries, each included with probability ½; v correct of
 * r guesses), the largest μ such that every μ′-GDP training with μ′ < μ gives v or more correct
 * guesses with probability below β = 1 − confidence ({@link rejectsGdp}), and its ε at `delta`
 * (δ(ε) = Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2), {@link gdpEpsilon}).
 *
 * The search is bounded: μ = 0 is tested first (nothing rejected: μ = 0, ε = 0 — never a positive
 * bound when the counts reject nothing, the failure of a port that returned its last grid point);
 * otherwise a bracket doubling from 1 up to 64, then bisection to 1e-10.
 *
 * The ε is a lower bound on the ε of an (ε, δ)-DP claim only for trainings whose trade-off curve is
 * Gaussian (DP-SGD with many steps is close to one, Dong, Roth & Su 2022 §5); for an assumption-free
 * bound use {@link oneRunEpsilon}. With 1,000 canaries and 400 guesses, all correct, μ ≤ 1.87
 * (ε ≤ 9.2 at δ = 10⁻⁵); the claim ε = 8 at δ = 10⁻⁵ is μ = 1.67.
 *
 * @param counts - {@link OneRunCounts}.
 * @param options - `delta` (required) and `confidence` (0.95).
 * @returns `{mu, epsilon}`.
 * @throws MetricsError on bad counts, a confidence outside (0, 1) or δ outside (0, 1).
 * @see Mahloujifar, Melis & Chaudhuri (2024), arXiv:2410.22235 (`audit_rh_with_cap`); the authors' port in facebookresearch/PrivacyGuard (`fdp_analysis_node.py`) and google-deepmind/jax_privacy `auditing.py` (`_epsilon_one_run_fdp`); Dong, Roth & Su (2022), Corollary 2.13
 */
export function oneRunGdp(counts: OneRunCounts, options: OneRunGdpOptions): OneRunGdp {
  const fn = 'oneRunGdp';
  const { canaries: m, guesses: r, correct: v } = checkOneRunCounts(fn, counts);
  const beta = significanceOf(fn, options);
  const delta = options?.delta;
  if (typeof delta !== 'number' || !(delta > 0 && delta < 1)) throw new MetricsError(`${fn}: delta must be a number in (0, 1), got ${describe(delta)}`);
  const mu = muFromCounts(m, r, v, beta);
  return { mu, epsilon: epsilonOfMu(mu, delta) };
}

/** The μ of {@link oneRunGdp} without validation (internal). */
export function muFromCounts(m: number, r: number, v: number, beta: number): number {
  if (v === 0 || !rejectsGdp(0, m, r, v, beta)) return 0;
  let lo = 0;
  let hi = 1;
  while (hi < 64 && rejectsGdp(hi, m, r, v, beta)) [lo, hi] = [hi, hi * 2];
  for (let i = 0; i < 200 && hi - lo > 1e-10; i++) {
    const mid = 0.5 * (lo + hi);
    if (rejectsGdp(mid, m, r, v, beta)) lo = mid;
    else hi = mid;
  }
  return lo;
}
