import { describe, expect, it } from 'vitest';
import { logA, logAFractional, logAInteger } from './log-a';

/**
 * log A_α by direct numerical integration of its definition (Mironov, Talwar and Zhang 2019, §3.3):
 * A_α = ∫ μ₀(z)·((1 − q) + q·μ₁(z)/μ₀(z))^α dz with μ₀ = N(0, σ²), μ₁ = N(1, σ²) — the same
 * integral TF Privacy's test evaluates with mpmath. Trapezoid rule in log space on a grid of step
 * σ/400 covering both modes (near 0 and near α) by 40σ; the integrand is smooth and Gaussian-tailed,
 * so the rule is accurate far beyond the test's rtol.
 */
function logAByIntegration(q: number, sigma: number, alpha: number): number {
  const lo = -40 * sigma;
  const hi = Math.max(alpha, 1) + 40 * sigma;
  const h = sigma / 400;
  const n = Math.ceil((hi - lo) / h);
  const logF = new Float64Array(n + 1);
  let max = -Infinity;
  for (let k = 0; k <= n; k++) {
    const z = lo + k * h;
    const logMu0 = -(z * z) / (2 * sigma * sigma) - Math.log(sigma * Math.sqrt(2 * Math.PI));
    const logRatio = (2 * z - 1) / (2 * sigma * sigma); // log μ₁(z)/μ₀(z)
    const a = Math.log1p(-q);
    const b = Math.log(q) + logRatio;
    const logMix = Math.max(a, b) + Math.log1p(Math.exp(-Math.abs(a - b)));
    logF[k] = logMu0 + alpha * logMix;
    if (logF[k]! > max) max = logF[k]!;
  }
  let sum = 0;
  for (let k = 0; k <= n; k++) sum += (k === 0 || k === n ? 0.5 : 1) * Math.exp(logF[k]! - max);
  return max + Math.log(sum * h);
}

describe('log A_α of the sampled Gaussian mechanism', () => {
  // The parameters of TF Privacy's `rdp_accountant_test.py` / `rdp_privacy_accountant_test.py`
  // `test_compute_log_a_equals_mp` (also in dp_accounting), which compares log A with a
  // multi-precision integral at rtol 1e-4. Integer and fractional orders, q from 1e-7 to 0.999.
  const params = [
    { q: 1e-7, sigma: 0.1, order: 1.01 },
    { q: 1e-6, sigma: 0.1, order: 256 },
    { q: 1e-5, sigma: 0.1, order: 256.1 },
    { q: 1e-6, sigma: 1, order: 27 },
    { q: 1e-4, sigma: 1, order: 1.5 },
    { q: 1e-3, sigma: 1, order: 2 },
    { q: 0.01, sigma: 10, order: 20 },
    { q: 0.1, sigma: 100, order: 20.5 },
    { q: 0.99, sigma: 0.1, order: 256 },
    { q: 0.999, sigma: 100, order: 256.1 },
  ];
  it.each(params)('equals the integral at q=$q, σ=$sigma, α=$order (rtol 1e-4)', ({ q, sigma, order }) => {
    const got = logA(q, sigma, order);
    const want = logAByIntegration(q, sigma, order);
    expect(Math.abs(got - want)).toBeLessThanOrEqual(1e-4 * Math.abs(want));
  });

  it('the integer and fractional series agree where both apply (α an integer)', () => {
    // The fractional series is valid for every α; at integer α it must give the binomial sum.
    for (const [q, sigma, alpha] of [
      [0.01, 1.1, 2],
      [0.04, 1.5, 8],
      [0.2, 0.8, 5],
      [1e-3, 4, 32],
    ] as const) {
      expect(logAFractional(q, sigma, alpha)).toBeCloseTo(logAInteger(q, sigma, alpha), 9);
    }
  });

  it('is continuous in α across integers (fractional orders between integer ones)', () => {
    const q = 0.04;
    const sigma = 1.5;
    const at = (a: number) => logA(q, sigma, a) / (a - 1);
    expect(at(3 - 1e-9)).toBeCloseTo(at(3), 6);
    expect(at(3 + 1e-9)).toBeCloseTo(at(3), 6);
    expect(at(2.5)).toBeGreaterThan(at(2));
    expect(at(2.5)).toBeLessThan(at(3));
  });
});
