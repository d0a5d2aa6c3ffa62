import { describe, expect, it } from 'vitest';
import { DEFAULT_ORDERS } from './accountant-options';
import { epsilonOf } from './epsilon-of';

describe('epsilonOf', () => {
  it("reproduces Opacus' RDP accountant test value", () => {
    // Opacus opacus/tests/accountants_test.py test_rdp_accountant: σ = 1.5, q = 0.04,
    // steps = int(90 / 0.04) = 2250, δ = 1e-5, default alphas → ε = 7.32911117143 (places=7).
    const { epsilon, order } = epsilonOf({ sampleRate: 0.04, noiseMultiplier: 1.5, steps: 2250, delta: 1e-5 });
    expect(epsilon).toBeCloseTo(7.32911117143, 7);
    expect(order).toBeCloseTo(3.9, 12); // a fractional order of the default grid is the optimum
  });

  it("uses Opacus' default order grid: 1.1, …, 10.9, 12, …, 63", () => {
    expect(DEFAULT_ORDERS.length).toBe(99 + 52);
    expect(DEFAULT_ORDERS.slice(0, 3)).toEqual([1.1, 1.2, 1.3]);
    expect(DEFAULT_ORDERS.slice(97, 101)).toEqual([10.8, 10.9, 12, 13]);
    expect(DEFAULT_ORDERS.at(-1)).toBe(63);
  });

  it('the classic conversion is looser; more steps, a larger q or less noise cost more ε', () => {
    const base = { sampleRate: 0.04, noiseMultiplier: 1.5, steps: 2250, delta: 1e-5 };
    const improved = epsilonOf(base).epsilon;
    expect(epsilonOf({ ...base, conversion: 'classic' }).epsilon).toBeGreaterThan(improved);
    expect(epsilonOf({ ...base, steps: 4500 }).epsilon).toBeGreaterThan(improved);
    expect(epsilonOf({ ...base, sampleRate: 0.08 }).epsilon).toBeGreaterThan(improved);
    expect(epsilonOf({ ...base, noiseMultiplier: 1.2 }).epsilon).toBeGreaterThan(improved);
  });

  it('σ = 0 is ∞; q = 0 or no steps is 0', () => {
    expect(epsilonOf({ sampleRate: 0.04, noiseMultiplier: 0, steps: 10, delta: 1e-5 }).epsilon).toBe(Infinity);
    expect(epsilonOf({ sampleRate: 0, noiseMultiplier: 1, steps: 10, delta: 1e-5 }).epsilon).toBe(0);
    expect(epsilonOf({ sampleRate: 0.04, noiseMultiplier: 1, steps: 0, delta: 1e-5 }).epsilon).toBe(0);
  });

  it('rejects bad inputs naming the argument', () => {
    const ok = { sampleRate: 0.04, noiseMultiplier: 1.5, steps: 10, delta: 1e-5 };
    expect(() => epsilonOf({ ...ok, delta: 1 })).toThrow('epsilonOf: delta must be a number in (0, 1), got 1');
    expect(() => epsilonOf({ ...ok, steps: -1 })).toThrow('epsilonOf: steps must be an integer ≥ 0, got -1');
    expect(() => epsilonOf({ ...ok, orders: [0.5] })).toThrow('epsilonOf: orders[0] must be a number in (1, 100000] or Infinity, got 0.5');
    expect(() => epsilonOf({ ...ok, sigma: 1 } as typeof ok)).toThrow('epsilonOf: sigma must be one of the options');
  });
});
