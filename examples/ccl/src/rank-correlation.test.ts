import { describe, expect, it } from 'vitest';
import { spearman } from './rank-correlation';

describe('spearman', () => {
  it('is ±1 for monotone samples and matches a hand-computed value', () => {
    expect(spearman([1, 2, 3, 4], [10, 20, 30, 400])).toBe(1);
    expect(spearman([1, 2, 3, 4], [4, 3, 2, 1])).toBe(-1);
    // Ranks x = 1..5, y = [2, 1, 4, 3, 5]; Σd² = 4, ρ = 1 − 6·4/(5·24) = 0.8 (hand calculation).
    expect(spearman([1, 2, 3, 4, 5], [20, 10, 40, 30, 50])).toBeCloseTo(0.8, 12);
  });

  it('ranks ties by their mean rank (scipy.stats.spearmanr([1,2,2,3],[1,2,3,4]) = 0.9486832980505138)', () => {
    expect(spearman([1, 2, 2, 3], [1, 2, 3, 4])).toBeCloseTo(0.9486832980505138, 12);
  });

  it('is NaN for a constant sample and rejects bad lengths with a clear error', () => {
    expect(spearman([1, 1, 1], [1, 2, 3])).toBeNaN();
    expect(() => spearman([1, 2], [1])).toThrow(/spearman: x and y must have the same length ≥ 2, got 2 and 1/);
  });
});
