import { describe, expect, it } from 'vitest';
import { epsilonFromRdp } from './epsilon-from-rdp';
import { rdpOf } from './rdp-of';

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe('epsilonFromRdp', () => {
  it('improved conversion: constant RDP (pure DP) picks the largest order', () => {
    // TF Privacy rdp_accountant_test.py test_get_privacy_spent_check_target_delta and dp_accounting
    // test_compute_epsilon_delta_pure_dp: orders 2..32, rdp 1.1, δ = 1e-5 → ε = 1.32783806176 at order 32.
    const orders = range(2, 33);
    const { epsilon, order } = epsilonFromRdp({ orders, rdp: orders.map(() => 1.1), delta: 1e-5 });
    expect(epsilon).toBeCloseTo(1.32783806176, 7);
    expect(order).toBe(32);
  });

  it('improved conversion: the Gaussian mechanism calibrated to exactly (1, 1e-6)-DP', () => {
    // TF Privacy test_get_privacy_spent_check_target_delta (second part) and dp_accounting
    // test_compute_epsilon_delta_gaussian: σ = 4.530877117, q = 1, a fine grid of fractional orders
    // 0.001·i → ε ≈ 1 (places=7). The reference grid starts at order 1.0, where the conversion is
    // undefined (0/0) and skipped; we start at 1.001 since orders must be > 1.
    const orders = Array.from({ length: 100000 - 1001 }, (_, k) => 0.001 * (k + 1001));
    const rdp = rdpOf({ sampleRate: 1, noiseMultiplier: 4.530877117, steps: 1, orders });
    expect(epsilonFromRdp({ orders, rdp, delta: 1e-6 }).epsilon).toBeCloseTo(1, 7);
  });

  it('classic conversion reproduces the old TF Privacy value of a heterogeneous composition', () => {
    // TF Privacy rdp_accountant_test.py test_check_composition: RDP of (q=1e-4, σ=0.4, 40000 steps)
    // plus (q=0.1, σ=2, 100 steps). With the old conversion the test asserted ε = 8.509656
    // (places=5) at order 2.5; the current test asserts the improved ε is ≤ 8.509656.
    const orders = [1.25, 1.5, 1.75, 2, 2.5, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28, 32, 64, 256];
    const a = rdpOf({ sampleRate: 1e-4, noiseMultiplier: 0.4, steps: 40000, orders });
    const b = rdpOf({ sampleRate: 0.1, noiseMultiplier: 2, steps: 100, orders });
    const rdp = a.map((v, i) => v + b[i]!);
    const classic = epsilonFromRdp({ orders, rdp, delta: 1e-5, conversion: 'classic' });
    expect(classic.epsilon).toBeCloseTo(8.509656, 5);
    expect(classic.order).toBe(2.5);
    const improved = epsilonFromRdp({ orders, rdp, delta: 1e-5 });
    expect(improved.epsilon).toBeLessThanOrEqual(8.509656);
    expect(improved.epsilon).toBeLessThan(classic.epsilon - 0.5); // the improvement is material here
  });

  it('no RDP spent gives ε = 0 (the KL shortcut), no noise gives ε = ∞', () => {
    // dp_accounting test_zero_poisson_sample: q = 0 at order 3.14159, δ = 1e-10 → ε = 0.
    expect(epsilonFromRdp({ orders: [3.14159], rdp: [0], delta: 1e-10 }).epsilon).toBe(0);
    // dp_accounting test_epsilon_non_private_gaussian: σ = 0 → ε = ∞.
    expect(epsilonFromRdp({ orders: [3.14159], rdp: [Infinity], delta: 0.1 })).toEqual({ epsilon: Infinity, order: 3.14159 });
    // Order ∞ with finite RDP is undefined (∞/∞) and skipped, as nanargmin does.
    expect(epsilonFromRdp({ orders: [Infinity, 2], rdp: [0.5, 0.5], delta: 1e-5 }).order).toBe(2);
  });

  it('rejects mismatched lengths and a δ outside (0, 1)', () => {
    expect(() => epsilonFromRdp({ orders: [2, 3], rdp: [1], delta: 1e-5 })).toThrow('epsilonFromRdp: rdp must be a list as long as orders (2), got [1]');
    expect(() => epsilonFromRdp({ orders: [2], rdp: [1], delta: 0 })).toThrow('epsilonFromRdp: delta must be a number in (0, 1), got 0');
    expect(() => epsilonFromRdp({ orders: [2], rdp: [-1], delta: 0.1 })).toThrow('epsilonFromRdp: rdp[0] must be a number ≥ 0 or Infinity, got -1');
    expect(() => epsilonFromRdp({ orders: [2], rdp: [1], delta: 0.1, conversion: 'tight' as 'classic' })).toThrow(
      'epsilonFromRdp: conversion must be one of "improved", "classic", got "tight"',
    );
  });
});
