import { MetricsError } from './metrics-error';
import { logPhi } from './normal-distribution';
import { describe } from './validate';

/** ln δ(ε) of μ-GDP: ln(Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2)), −Infinity when the difference is 0. */
function logDeltaOf(mu: number, epsilon: number): number {
  const a = logPhi(-epsilon / mu + mu / 2);
  const b = epsilon + logPhi(-epsilon / mu - mu / 2);
  return b >= a ? -Infinity : a + Math.log1p(-Math.exp(b - a));
}

function checkPositiveOrZero(fn: string, name: string, value: unknown): number {
  if (typeof value !== 'number' || !(value >= 0) || !Number.isFinite(value)) {
    throw new MetricsError(`${fn}: ${name} must be a finite number ≥ 0, got ${describe(value)}`);
  }
  return value;
}

function checkDelta(fn: string, delta: unknown): number {
  if (typeof delta !== 'number' || !(delta > 0 && delta < 1)) throw new MetricsError(`${fn}: delta must be a number in (0, 1), got ${describe(delta)}`);
  return delta;
}

/**
 * The δ at which μ-Gaussian differential privacy gives ε:
 * `δ(ε) = Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2)` (computed in log space, so e^ε·Φ(…) neither
 * overflows nor cancels). μ = 0 gives 0.
 * @param mu - μ ≥ 0 (the Gaussian trade-off curve G_μ, the privacy of one Gaussian mechanism with sensitivity/σ = μ).
 * @param epsilon - ε ≥ 0.
 * @returns δ in [0, 1).
 * @throws MetricsError when μ or ε is negative, NaN or infinite.
 * @see Dong, Roth & Su (2022), "Gaussian Differential Privacy", JRSS-B 84(1), Corollary 2.13
 */
export function gdpDelta(mu: number, epsilon: number): number {
  checkPositiveOrZero('gdpDelta', 'mu', mu);
  checkPositiveOrZero('gdpDelta', 'epsilon', epsilon);
  return mu === 0 ? 0 : Math.exp(logDeltaOf(mu, epsilon));
}

/**
 * The smallest ε with μ-GDP ⇒ (ε, δ)-DP: the root of {@link gdpDelta}(μ, ε) = δ (δ decreases in ε),
 * by bisection on a bracket that doubles from 1 (at most 2¹¹), to 1e-12 relative. 0 when
 * δ(0) = 2Φ(μ/2) − 1 is already ≤ δ.
 * @param mu - μ ≥ 0.
 * @param delta - δ ∈ (0, 1).
 * @returns ε ≥ 0.
 * @throws MetricsError when μ is negative or not finite, or δ is outside (0, 1).
 * @see Dong, Roth & Su (2022), Corollary 2.13; jax_privacy `auditing.py` (`epsilon_from_gdp`)
 */
export function gdpEpsilon(mu: number, delta: number): number {
  checkPositiveOrZero('gdpEpsilon', 'mu', mu);
  checkDelta('gdpEpsilon', delta);
  return epsilonOfMu(mu, delta);
}

/** {@link gdpEpsilon} without validation (internal). */
export function epsilonOfMu(mu: number, delta: number): number {
  if (mu === 0) return 0;
  const target = Math.log(delta);
  if (logDeltaOf(mu, 0) <= target) return 0;
  let lo = 0;
  let hi = 1;
  while (logDeltaOf(mu, hi) > target && hi < 2048) [lo, hi] = [hi, hi * 2];
  for (let i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
    const mid = 0.5 * (lo + hi);
    if (logDeltaOf(mu, mid) > target) lo = mid;
    else hi = mid;
  }
  return 0.5 * (lo + hi);
}

/**
 * The μ of the Gaussian trade-off curve that gives exactly (ε, δ): the root of
 * {@link gdpDelta}(μ, ε) = δ (δ increases in μ), by bisection on a bracket that doubles from 1 (at
 * most 2⁷), to 1e-12 relative. E.g. `gdpMu(8, 1e-5)` ≈ 1.666: the claim "ε = 8 at δ = 10⁻⁵" read as
 * a Gaussian mechanism.
 * @param epsilon - ε ≥ 0.
 * @param delta - δ ∈ (0, 1).
 * @returns μ > 0.
 * @throws MetricsError when ε is negative or not finite, or δ is outside (0, 1).
 * @see Dong, Roth & Su (2022), Corollary 2.13
 */
export function gdpMu(epsilon: number, delta: number): number {
  checkPositiveOrZero('gdpMu', 'epsilon', epsilon);
  const target = Math.log(checkDelta('gdpMu', delta));
  let lo = 0;
  let hi = 1;
  while (logDeltaOf(hi, epsilon) < target && hi < 128) [lo, hi] = [hi, hi * 2];
  for (let i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
    const mid = 0.5 * (lo + hi);
    if (logDeltaOf(mid, epsilon) < target) lo = mid;
    else hi = mid;
  }
  return 0.5 * (lo + hi);
}
