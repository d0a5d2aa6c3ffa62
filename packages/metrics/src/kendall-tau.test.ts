import { describe, expect, it } from 'vitest';
import { kendallTau } from './kendall-tau';

describe('kendallTau', () => {
  it('is ±1 for monotone samples, with the exact permutation p-value (2/n!)', () => {
    const up = kendallTau([1, 2, 3, 4, 5], [10, 20, 30, 40, 50]);
    expect(up.tau).toBe(1);
    expect(up.p).toBeCloseTo(2 / 120, 12);
    expect(up.method).toBe('exact');
    expect(kendallTau([1, 2, 3, 4, 5], [5, 4, 3, 2, 1]).tau).toBe(-1);
  });

  it('cannot be significant with 3 points (two-sided p ≥ 1/3)', () => {
    const r = kendallTau([1, 2, 3], [1, 2, 3]);
    expect(r.tau).toBe(1);
    expect(r.p).toBeCloseTo(2 / 6, 12);
  });

  it('matches scipy on a case with one discordant pair (τ = 0.8, exact p = 0.0833)', () => {
    // scipy.stats.kendalltau([1,2,3,4,5],[1,2,3,5,4], method='exact') → (0.8, 0.08333)
    const r = kendallTau([1, 2, 3, 4, 5], [1, 2, 3, 5, 4]);
    expect(r.tau).toBeCloseTo(0.8, 12);
    expect(r.p).toBeCloseTo(0.0833333, 6);
  });

  it('uses τ-b with ties and the normal approximation above 10 points', () => {
    const x = Array.from({ length: 12 }, (_, i) => i);
    const y = x.map((v) => v);
    const r = kendallTau(x, y);
    expect(r.method).toBe('normal');
    expect(r.tau).toBe(1);
    // S = 66, var = 12·11·29/18 = 212.67, z = 4.526 → p ≈ 6.0e-6
    expect(r.p).toBeCloseTo(6.0e-6, 6);
    const tied = kendallTau([1, 1, 2, 3], [1, 2, 3, 4]);
    expect(tied.tau).toBeCloseTo(5 / Math.sqrt(5 * 6), 12);
    expect(kendallTau([1, 2, 3], [2, 2, 2]).tau).toBeNaN();
  });

  it('rejects bad input naming the argument', () => {
    expect(() => kendallTau([1, 2], [1])).toThrow(/x and y must have the same length, got 2 and 1/);
    expect(() => kendallTau([1], [1])).toThrow(/at least 2 pairs, got 1/);
    expect(() => kendallTau([1, NaN], [1, 2])).toThrow(/x\[1\] must not be NaN/);
  });
});
