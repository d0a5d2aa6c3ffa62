import { describe, expect, it } from 'vitest';
import { gdpDelta, gdpEpsilon, gdpMu } from './gaussian-dp';
import { MetricsError } from './metrics-error';

// Reference values: δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2) with scipy.stats.norm, roots by
// scipy.optimize.brentq (xtol 1e-12) (SciPy 1.17.1).
describe('Gaussian DP ↔ (ε, δ)', () => {
  it('gdpDelta matches the closed form: μ = 1, ε = 1 gives Φ(−½) − e·Φ(−3/2)', () => {
    expect(gdpDelta(1, 1)).toBeCloseTo(0.3085375387259869 - Math.E * 0.06680720126885807, 14);
    expect(gdpDelta(1, 0)).toBeCloseTo(2 * 0.6914624612740131 - 1, 14); // 2Φ(μ/2) − 1
    expect(gdpDelta(0, 3)).toBe(0);
  });

  it('gdpEpsilon and gdpMu match SciPy roots: ε = 8 at δ = 1e-5 is μ = 1.666, μ = 1 and 2 are ε = 4.38 and 10.0', () => {
    expect(gdpMu(8, 1e-5)).toBeCloseTo(1.666030597845718, 9);
    expect(gdpEpsilon(1, 1e-5)).toBeCloseTo(4.377178095681223, 9);
    expect(gdpEpsilon(2, 1e-5)).toBeCloseTo(9.997256146434303, 9);
  });

  it('round-trips, is monotone, and gives 0 where δ(0) is already below δ', () => {
    for (const mu of [0.05, 0.4, 1.7, 6]) expect(gdpMu(gdpEpsilon(mu, 1e-6), 1e-6)).toBeCloseTo(mu, 8);
    expect(gdpEpsilon(1.5, 1e-5)).toBeGreaterThan(gdpEpsilon(1, 1e-5));
    expect(gdpEpsilon(1, 1e-3)).toBeLessThan(gdpEpsilon(1, 1e-5));
    expect(gdpEpsilon(0, 1e-5)).toBe(0);
    // μ = 1e-6: δ(0) = 2Φ(5e-7) − 1 ≈ 4e-7 < 1e-5, so ε = 0.
    expect(gdpEpsilon(1e-6, 1e-5)).toBe(0);
  });

  it('rejects bad arguments naming them', () => {
    expect(() => gdpEpsilon(-1, 1e-5)).toThrow('gdpEpsilon: mu must be a finite number ≥ 0, got -1');
    expect(() => gdpEpsilon(1, 0)).toThrow('gdpEpsilon: delta must be a number in (0, 1), got 0');
    expect(() => gdpMu(Infinity, 1e-5)).toThrow(MetricsError);
    expect(() => gdpDelta(1, NaN)).toThrow('gdpDelta: epsilon must be a finite number ≥ 0, got NaN');
  });
});
