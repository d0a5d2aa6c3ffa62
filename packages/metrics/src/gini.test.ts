import { describe, expect, it } from 'vitest';
import { giniAbs, giniShifted } from './gini';

// Both use G = Σ_{i=1..n} (2i − n − 1)·w_(i) / (n·Σ w) on ascending w (Hurley & Rickard's G written
// with ranks; equal to 1 − 2Σ (c_k/‖c‖₁)(n − k + ½)/n).
describe('giniAbs (standard sparsity Gini of |w|)', () => {
  it('is 0 for equal values and 0.75 for [0, 0, 0, 1] (hand-computed)', () => {
    expect(giniAbs([1, 1, 1, 1])).toBe(0);
    // coefficients −3, −1, 1, 3 on [0, 0, 0, 1] → 3 / (4·1) = 0.75.
    expect(giniAbs([0, 0, 0, 1])).toBe(0.75);
    expect(giniAbs([0, 0, 0, -1])).toBe(0.75);
    // |[−1, 0, 1]| = [0, 1, 1] → (−2·0 + 0·1 + 2·1) / (3·2) = 1/3.
    expect(giniAbs([-1, 0, 1])).toBeCloseTo(1 / 3, 15);
    expect(giniAbs([0, 0])).toBe(0);
  });

  it('flattens a list of per-variable arrays', () => {
    expect(giniAbs([new Float32Array([0, 0]), [0, 1]])).toBe(0.75);
  });
});

describe('giniShifted (PAST)', () => {
  it('is 0 for equal values and ≈ 0.75 for [0, 0, 0, 1] (the 1e-10 offset barely moves it)', () => {
    expect(giniShifted([1, 1, 1, 1])).toBe(0);
    expect(giniShifted([0, 0, 0, 1])).toBeCloseTo(0.75, 9);
    expect(giniShifted([0, 0, 0, 1], { epsilon: 0 })).toBe(0.75);
  });

  it('shifts negative values by −min first', () => {
    // [−1, 0, 1] → [0, 1, 2] → (−2·0 + 0·1 + 2·2) / (3·3) = 4/9.
    expect(giniShifted([-1, 0, 1], { epsilon: 0 })).toBeCloseTo(4 / 9, 15);
  });

  it('decreases as weights cluster at 0, while giniAbs increases (PAST Fig. 2b vs Hurley & Rickard)', () => {
    const spread = [-1, -0.5, 0.5, 1];
    const clustered = [-1, -0.01, 0.01, 1];
    // shifted: [0, .5, 1.5, 2] → 7/16 = .4375; [0, .99, 1.01, 2] → 6.02/16 = .37625.
    expect(giniShifted(spread, { epsilon: 0 })).toBeCloseTo(0.4375, 15);
    expect(giniShifted(clustered, { epsilon: 0 })).toBeCloseTo(0.37625, 15);
    // abs: [.5, .5, 1, 1] → 2/12; [.01, .01, 1, 1] → 3.96/8.08.
    expect(giniAbs(spread)).toBeCloseTo(2 / 12, 15);
    expect(giniAbs(clustered)).toBeCloseTo(3.96 / 8.08, 15);
  });

  it('rejects bad input', () => {
    expect(() => giniShifted([])).toThrow('giniShifted: values must not be empty, got an empty array');
    expect(() => giniShifted([1, NaN])).toThrow('giniShifted: values[1] must not be NaN');
    expect(() => giniShifted([[1], [Infinity]])).toThrow('giniShifted: values[1][0] must be finite, got Infinity');
    expect(() => giniShifted([1], { epsilon: -1 })).toThrow('giniShifted: epsilon must be a finite number in [0, Infinity], got -1');
    expect(() => giniAbs([[], []])).toThrow('giniAbs: values must hold at least one value, got only empty arrays');
    expect(() => giniAbs([1, 'a'] as never)).toThrow('giniAbs: values[1] must be a number, got "a"');
  });
});
