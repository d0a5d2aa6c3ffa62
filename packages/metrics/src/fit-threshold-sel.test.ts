import { describe, expect, it } from 'vitest';
import { fitThresholdSel } from './fit-threshold-sel';
import { seededUniform } from './seeded-uniform';
import { referenceSelSearch } from './test-utils/reference-thresholds';

describe('fitThresholdSel (SELENA search)', () => {
  it('maximises the raw count and keeps the smallest maximiser (hand-computed)', () => {
    // tr = [5, 4, 3, 2], te = [1, 3.5]; ascending candidates and #{tr ≥ v} + #{te < v}:
    //   1: 4+0   2: 4+1 = 5   3: 3+1   3.5: 2+1   4: 2+2   5: 1+2  → threshold 2, 5 correct.
    // (SM's balanced search picks 4 on the same data; see fit-threshold.test.ts.)
    expect(fitThresholdSel([5, 4, 3, 2], [1, 3.5])).toEqual({ threshold: 2, correct: 5 });
  });

  it('ignores candidate order on ties: the smallest maximiser wins', () => {
    // tr = [3, 1], te = [2, 0]: counts 0: 2, 1: 3, 2: 2, 3: 3 → 1 (SM would pick 3 here).
    expect(fitThresholdSel([3, 1], [2, 0])).toEqual({ threshold: 1, correct: 3 });
    expect(fitThresholdSel([1, 3], [0, 2])).toEqual({ threshold: 1, correct: 3 });
  });

  it('equals the O(n²) reference on seeded random data with many ties', () => {
    const uniform = seededUniform(33);
    for (let trial = 0; trial < 40; trial++) {
      const levels = 1 + Math.floor(uniform() * 10);
      const draw = (): number => Math.floor(uniform() * levels) - 2;
      const tr = Array.from({ length: 1 + Math.floor(uniform() * 50) }, draw);
      const te = Array.from({ length: 1 + Math.floor(uniform() * 50) }, draw);
      expect(fitThresholdSel(tr, te)).toEqual(referenceSelSearch(tr, te));
    }
  });

  it('rejects bad input', () => {
    expect(() => fitThresholdSel([], [1])).toThrow('fitThresholdSel: trScores must not be empty');
    expect(() => fitThresholdSel([1], [NaN])).toThrow('fitThresholdSel: teScores[0] must not be NaN');
    expect(() => fitThresholdSel([1], 'x' as never)).toThrow('fitThresholdSel: teScores must be an array of numbers, got "x"');
  });
});
