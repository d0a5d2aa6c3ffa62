import { InvalidArgumentError } from '@mia/core';
import { describe, expect, it } from 'vitest';
import { rdpOf } from './rdp-of';

describe('rdpOf', () => {
  it("reproduces TF Privacy's rdp_accountant_test.py values", () => {
    // test_compute_rdp_no_data: q = 0 → 0.
    expect(rdpOf({ sampleRate: 0, noiseMultiplier: 10, steps: 1, orders: [20] })).toEqual([0]);
    // test_compute_rdp_no_sampling: q = 1 → α/(2σ²) = 0.1.
    expect(rdpOf({ sampleRate: 1, noiseMultiplier: 10, steps: 1, orders: [20] })).toEqual([0.1]);
    // test_compute_rdp_scalar: compute_rdp(0.1, 2, 10, 5) ≈ 0.07737 (places=5).
    expect(rdpOf({ sampleRate: 0.1, noiseMultiplier: 2, steps: 10, orders: [5] })[0]).toBeCloseTo(0.07737, 5);
    // test_compute_rdp_sequence (fractional orders 1.5 and 2.5 included), assertSequenceAlmostEqual delta=1e-5.
    const got = rdpOf({ sampleRate: 0.01, noiseMultiplier: 2.5, steps: 50, orders: [1.5, 2.5, 5, 50, 100, Infinity] });
    const want = [0.00065, 0.001085, 0.00218075, 0.023846, 167.416307, Infinity];
    for (let i = 0; i < 5; i++) expect(Math.abs(got[i]! - want[i]!)).toBeLessThanOrEqual(1e-5);
    expect(got[5]).toBe(Infinity);
    // test_compute_heterogeneous_rdp_different_sampling_probabilities: (q=0, σ=10) + (q=1, σ=10) at order 20 = 0.1.
    const a = rdpOf({ sampleRate: 0, noiseMultiplier: 10, steps: 1, orders: [20] })[0]!;
    const b = rdpOf({ sampleRate: 1, noiseMultiplier: 10, steps: 1, orders: [20] })[0]!;
    expect(a + b).toBe(0.1);
  });

  it("reproduces dp_accounting's rdp_privacy_accountant_test.py values", () => {
    // test_compute_rdp_poisson_sampled_gaussian: np.allclose(..., rtol=1e-4) (and the default atol=1e-8).
    const got = rdpOf({ sampleRate: 0.01, noiseMultiplier: 2.5, steps: 50, orders: [1.5, 2.5, 5, 50, 100] });
    const want = [6.5007e-4, 1.0854e-3, 2.1808e-3, 2.3846e-2, 1.6742e2];
    got.forEach((g, i) => expect(Math.abs(g - want[i]!)).toBeLessThanOrEqual(1e-8 + 1e-4 * Math.abs(want[i]!)));
    // test_compute_rdp_gaussian: q = 1 is the Gaussian mechanism, α/(2σ²) at a fractional order.
    expect(rdpOf({ sampleRate: 1, noiseMultiplier: 2.71828, steps: 1, orders: [3.14159] })[0]).toBeCloseTo(3.14159 / (2 * 2.71828 ** 2), 12);
    // test_rdp_composition: T steps give T times the RDP of one.
    const one = rdpOf({ sampleRate: 0.05, noiseMultiplier: 3.14159, steps: 1, orders: [2.71828, 7] });
    const six = rdpOf({ sampleRate: 0.05, noiseMultiplier: 3.14159, steps: 6, orders: [2.71828, 7] });
    six.forEach((v, i) => expect(v).toBeCloseTo(6 * one[i]!, 14));
  });

  it('has no privacy without noise, and none spent without steps', () => {
    expect(rdpOf({ sampleRate: 0.1, noiseMultiplier: 0, steps: 3, orders: [2, 4.5] })).toEqual([Infinity, Infinity]);
    expect(rdpOf({ sampleRate: 0.1, noiseMultiplier: 0, steps: 0, orders: [2] })).toEqual([0]);
  });

  it('grows with q and shrinks with σ (monotone in the mechanism)', () => {
    const at = (q: number, s: number) => rdpOf({ sampleRate: q, noiseMultiplier: s, steps: 1, orders: [4.5] })[0]!;
    expect(at(0.02, 1)).toBeGreaterThan(at(0.01, 1));
    expect(at(0.01, 2)).toBeLessThan(at(0.01, 1));
    expect(at(1, 1)).toBeGreaterThan(at(0.99, 1));
  });

  it('rejects bad inputs naming the argument, the expectation and the value', () => {
    const ok = { sampleRate: 0.1, noiseMultiplier: 1, steps: 10, orders: [2] };
    expect(() => rdpOf({ ...ok, sampleRate: 1.5 })).toThrow('rdpOf: sampleRate must be a number in [0, 1], got 1.5');
    expect(() => rdpOf({ ...ok, noiseMultiplier: -1 })).toThrow('rdpOf: noiseMultiplier must be a number ≥ 0, got -1');
    expect(() => rdpOf({ ...ok, steps: 2.5 })).toThrow('rdpOf: steps must be an integer ≥ 0, got 2.5');
    expect(() => rdpOf({ ...ok, orders: [2, 1] })).toThrow('rdpOf: orders[1] must be a number in (1, 100000] or Infinity, got 1');
    // A larger order's sum would run for minutes (about α terms).
    expect(() => rdpOf({ ...ok, orders: [1e12] })).toThrow('rdpOf: orders[0] must be a number in (1, 100000] or Infinity, got 1000000000000');
    expect(() => rdpOf({ ...ok, orders: [] })).toThrow(InvalidArgumentError);
    expect(() => rdpOf({ ...ok, sampleRate: NaN })).toThrow('rdpOf: sampleRate must be a number in [0, 1], got NaN');
  });
});
