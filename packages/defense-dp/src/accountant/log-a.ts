// log A_α of the Poisson-subsampled Gaussian mechanism (Mironov, Talwar and Zhang 2019, "Rényi
// Differential Privacy of the Sampled Gaussian Mechanism", arXiv:1908.10530, §3.3), ported from
// TensorFlow Privacy's `rdp_accountant.py` (`_compute_log_a_int`, `_compute_log_a_frac`; also
// `_compute_log_a_for_int_alpha` / `_compute_log_a_for_frac_alpha` in Opacus'
// `opacus/accountants/analysis/rdp.py`), Apache License 2.0. Valid for 0 < q < 1, σ > 0.
import { InvalidArgumentError } from '@mia/core';
import { logAdd, logErfc, logSub } from './log-space';

/**
 * Terms of the fractional series beyond α: past its peak (near i = α) a term decays only like a
 * power of i when q is near ½, and the most a grid of q ∈ (0, 1), σ up to 10¹⁵⁰ and α ∈ (1, 10⁵]
 * took past α was 3.6·10⁵; the bound stops a series that would not end (a NaN term never falls below e⁻³⁰).
 */
const SERIES_TERMS_PAST_ORDER = 1_000_000;

/**
 * log A_α for an integer α ≥ 1: `log Σ_{i=0}^{α} C(α,i)·qⁱ·(1−q)^{α−i}·exp((i²−i)/(2σ²))`.
 * @internal
 */
export function logAInteger(q: number, sigma: number, alpha: number): number {
  let logA = -Infinity;
  let logBinomial = 0; // log C(α, 0)
  const logQ = Math.log(q);
  const log1mQ = Math.log1p(-q);
  for (let i = 0; i <= alpha; i++) {
    // C(α, i) = C(α, i − 1)·(α − i + 1)/i, in log space (the reference: log(special.binom(α, i))).
    if (i > 0) logBinomial += Math.log((alpha - i + 1) / i);
    const logCoef = logBinomial + i * logQ + (alpha - i) * log1mQ;
    logA = logAdd(logA, logCoef + (i * i - i) / (2 * sigma * sigma));
  }
  return logA;
}

/**
 * log A_α for a fractional α > 1: the two integrals over (−∞, z₀] and [z₀, ∞) as series in the
 * generalised binomial coefficients, summed until both terms fall below e⁻³⁰ (the reference's
 * do-until loop, here bounded by α + 10⁶ terms).
 * @throws InvalidArgumentError naming q, σ and α when a term is NaN or the series has not converged
 *   within that bound (the reference would loop forever).
 * @internal
 */
export function logAFractional(q: number, sigma: number, alpha: number): number {
  let logA0 = -Infinity;
  let logA1 = -Infinity;
  const logQ = Math.log(q);
  const log1mQ = Math.log1p(-q);
  const z0 = sigma * sigma * Math.log(1 / q - 1) + 0.5;
  const scale = Math.SQRT2 * sigma;
  let logAbsCoef = 0; // log |C(α, 0)|
  let coefSign = 1;
  const maxTerms = Math.ceil(alpha) + SERIES_TERMS_PAST_ORDER;
  for (let i = 0; ; i++) {
    if (i === maxTerms)
      throw new InvalidArgumentError(
        `RDP accountant: the series of log A_α did not converge within ${maxTerms} terms at q = ${q}, σ = ${sigma}, α = ${alpha}; use integer orders for these parameters`,
      );
    if (i > 0) {
      // Generalised binomial C(α, i) = C(α, i − 1)·(α − i + 1)/i, kept as sign and log |·|.
      const factor = (alpha - i + 1) / i;
      logAbsCoef += Math.log(Math.abs(factor));
      if (factor < 0) coefSign = -coefSign;
    }
    const j = alpha - i;
    const logT0 = logAbsCoef + i * logQ + j * log1mQ;
    const logT1 = logAbsCoef + j * logQ + i * log1mQ;
    const logE0 = Math.log(0.5) + logErfc((i - z0) / scale);
    const logE1 = Math.log(0.5) + logErfc((z0 - j) / scale);
    const logS0 = logT0 + (i * i - i) / (2 * sigma * sigma) + logE0;
    const logS1 = logT1 + (j * j - j) / (2 * sigma * sigma) + logE1;
    if (coefSign > 0) {
      logA0 = logAdd(logA0, logS0);
      logA1 = logAdd(logA1, logS1);
    } else {
      logA0 = logSub(logA0, logS0);
      logA1 = logSub(logA1, logS1);
    }
    if (Number.isNaN(logS0) || Number.isNaN(logS1))
      throw new InvalidArgumentError(
        `RDP accountant: term ${i} of the series of log A_α is NaN at q = ${q}, σ = ${sigma}, α = ${alpha} (outside what double precision resolves)`,
      );
    if (Math.max(logS0, logS1) < -30) break;
  }
  return logAdd(logA0, logA1);
}

/** log A_α for any finite α > 1 (integer or fractional), 0 < q < 1, σ > 0. @internal */
export function logA(q: number, sigma: number, alpha: number): number {
  return Number.isInteger(alpha) ? logAInteger(q, sigma, alpha) : logAFractional(q, sigma, alpha);
}

/**
 * RDP of one step of the Poisson-subsampled Gaussian mechanism at order α, with the reference's
 * special cases in its order: q = 0 → 0 (no example is used), σ = 0 → ∞ (no noise), q = 1 → the
 * Gaussian mechanism's α/(2σ²), α = ∞ → ∞. A σ so small that (α + 2)²/σ² overflows (σ below about
 * α·10⁻¹⁵⁴) counts as no noise too, ∞ being a valid bound: the sums' exponents would overflow to
 * ∞ − ∞ = NaN (the reference returns NaN for integer orders and loops forever for fractional ones).
 * @internal
 */
export function rdpOfOneStep(q: number, sigma: number, alpha: number): number {
  if (q === 0) return 0;
  if (sigma === 0 || !Number.isFinite(((alpha + 2) * (alpha + 2)) / (sigma * sigma))) return Infinity;
  if (q === 1) return alpha / (2 * sigma * sigma);
  if (alpha === Infinity) return Infinity;
  return logA(q, sigma, alpha) / (alpha - 1);
}
