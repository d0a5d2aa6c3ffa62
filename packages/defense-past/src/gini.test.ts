import { describe, expect, it } from 'vitest';
import { giniAbs, giniShifted } from './gini';

describe('giniShifted / giniAbs', () => {
  it('match hand-computed values', () => {
    // w = [−1, 0, 1, 2]. Shifted: w − min = [0, 1, 2, 3] (+1e-10), n = 4, Σ = 6,
    // Σ(2i − n − 1)·w_(i) = −3·0 − 1·1 + 1·2 + 3·3 = 10 → 10 / (4·6) = 0.4166667.
    expect(giniShifted([-1, 0, 1, 2])).toBeCloseTo(10 / 24, 9);
    // |w| sorted = [0, 1, 1, 2], Σ = 4: −3·0 − 1·1 + 1·1 + 3·2 = 6 → 6 / 16 = 0.375.
    expect(giniAbs([-1, 0, 1, 2])).toBeCloseTo(0.375, 12);
    // Non-negative input is not shifted; per-variable arrays are flattened together.
    expect(giniShifted([[1], [1, 1, 1]])).toBeCloseTo(0, 12);
    expect(giniAbs([[0, 0, 0], [5]])).toBeCloseTo(0.75, 12); // one non-zero of n = 4: 1 − 1/n
    expect(giniAbs([0, 0])).toBe(0);
  });

  it('give the same numbers as @mia/metrics giniShifted / giniAbs', () => {
    // Literal values printed by @mia/metrics (packages/metrics/src/gini.ts) for this vector;
    // this package may not depend on @mia/metrics (defenses depend on @mia/core only).
    const v = [0.3, -1.2, 0.05, 2.5, -0.4, 0, 0.7, -0.05, 1.1, -2.0];
    expect(giniShifted(v)).toBeCloseTo(0.3009523809380498, 12);
    expect(giniAbs(v)).toBeCloseTo(0.5373493975903615, 12);
  });

  it('moves in opposite directions when weights shrink towards 0', () => {
    const dense = [-1, -0.5, 0.5, 1, -0.8, 0.9];
    const sparse = [-1, -0.01, 0.01, 1, 0, 0.02];
    expect(giniShifted(sparse)).toBeLessThan(giniShifted(dense));
    expect(giniAbs(sparse)).toBeGreaterThan(giniAbs(dense));
  });

  it('rejects empty and non-finite input', () => {
    expect(() => giniShifted([])).toThrow('giniShifted: values must contain at least 1 value, got 0');
    expect(() => giniAbs([1, Number.NaN])).toThrow('giniAbs: values must be finite, got NaN');
  });
});
