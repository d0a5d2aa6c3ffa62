import { describe, expect, it } from 'vitest';
import { fitClassThresholds } from './fit-class-thresholds';
import { evaluateClassThresholds } from './evaluate-class-thresholds';
import { seededUniform } from './seeded-uniform';
import { referenceThreSetting } from './test-utils/reference-thresholds';

// Class 0: tr [.9, .4, .7] vs te [.3, .7, .5, .1] → .4 (see fit-threshold.test.ts).
// Class 1: tr [1, 3] vs te [2, 0] → 1 (tie with 3, first in candidate order wins).
// Class 2: members only → fallback to the global fit: tr [.9, .4, .7, 1, 3, .8] vs te
// [.3, .7, .5, .1, 2, 0] gives .4 with ½(6/6 + 3/6) = .75, tied by .7 with ½(5/6 + 4/6) = .75 later
// (the numpy SM loop returns (0.4, 0.75) on these arrays).
const trScores = [0.9, 0.4, 0.7, 1, 3, 0.8];
const trLabels = [0, 0, 0, 1, 1, 2];
const teScores = [0.3, 0.7, 0.5, 0.1, 2, 0];
const teLabels = [0, 0, 0, 0, 1, 1];

describe('fitClassThresholds', () => {
  it('fits one SM threshold per class and falls back to the global one for a missing class (A5)', () => {
    const fit = fitClassThresholds(trScores, trLabels, teScores, teLabels);
    expect(Array.from(fit.thresholds)).toEqual([0.4, 1, 0.4]);
    expect(fit.global).toEqual({ threshold: 0.4, accuracy: 0.75 });
    expect(fit.fallbackClasses).toEqual([2]);
  });

  it('gives classes beyond the data the global threshold when numClasses is larger', () => {
    const fit = fitClassThresholds(trScores, trLabels, teScores, teLabels, { numClasses: 5 });
    expect(Array.from(fit.thresholds)).toEqual([0.4, 1, 0.4, 0.4, 0.4]);
    expect(fit.fallbackClasses).toEqual([2, 3, 4]);
  });

  it('equals the per-class reference loop on seeded random data', () => {
    const uniform = seededUniform(5);
    const n = 300;
    const tr = Array.from({ length: n }, () => Math.round(uniform() * 20) / 20);
    const te = Array.from({ length: n }, () => Math.round(uniform() * 20) / 20);
    const trY = Array.from({ length: n }, () => Math.floor(uniform() * 4));
    const teY = Array.from({ length: n }, () => Math.floor(uniform() * 4));
    const fit = fitClassThresholds(tr, trY, te, teY);
    for (let c = 0; c < 4; c++) {
      const expected = referenceThreSetting(
        tr.filter((_, i) => trY[i] === c),
        te.filter((_, i) => teY[i] === c),
      );
      expect(fit.thresholds[c]).toBe(expected.threshold);
    }
  });

  it('rejects bad input', () => {
    expect(() => fitClassThresholds([1], [0, 1], [1], [0])).toThrow('fitClassThresholds: trScores and trLabels must have the same length, got 1 and 2');
    expect(() => fitClassThresholds([1], [-1], [1], [0])).toThrow('fitClassThresholds: trLabels[0] must be a non-negative integer class label, got -1');
    expect(() => fitClassThresholds([1], [0.5], [1], [0])).toThrow('trLabels[0] must be a non-negative integer class label, got 0.5');
    expect(() => fitClassThresholds([], [], [1], [0])).toThrow('fitClassThresholds: trScores must not be empty');
    expect(() => fitClassThresholds([1], [0], [NaN], [0])).toThrow('fitClassThresholds: teScores[0] must not be NaN');
    expect(() => fitClassThresholds([1], [3], [1], [0], { numClasses: 2 })).toThrow('fitClassThresholds: every label must be < numClasses = 2, got label 3');
    expect(() => fitClassThresholds([1], [0], [1], [0], { numClasses: 0 })).toThrow('fitClassThresholds: numClasses must be an integer in [1,');
  });
});

describe('evaluateClassThresholds', () => {
  it('applies per-class thresholds to target data (hand-computed)', () => {
    // thresholds [.4, 1, .4]; members .5(c0) ✓, .2(c0) ✗, 2(c1) ✓, .45(c2) ✓ → TP 3/4;
    // non-members .35(c0) ✗, .6(c0) ✓, .5(c1) ✗, .3(c2) ✗ → FP 1/4; accuracy ½(3/4 + 3/4) = .75.
    const result = evaluateClassThresholds([0.4, 1, 0.4], [0.5, 0.2, 2, 0.45], [0, 0, 1, 2], [0.35, 0.6, 0.5, 0.3], [0, 0, 1, 2]);
    expect(result).toEqual({
      accuracy: 0.75,
      tpr: 0.75,
      fpr: 0.25,
      advantage: 0.5,
      truePositives: 3,
      falsePositives: 1,
      numMembers: 4,
      numNonMembers: 4,
    });
  });

  it('rejects bad input', () => {
    expect(() => evaluateClassThresholds([0.4], [1], [1], [0], [0])).toThrow('evaluateClassThresholds: class 1 has no threshold (thresholds has 1 entries)');
    expect(() => evaluateClassThresholds([NaN], [1], [0], [0], [0])).toThrow('evaluateClassThresholds: thresholds[0] must not be NaN');
    expect(() => evaluateClassThresholds([0], [], [], [0], [0])).toThrow('evaluateClassThresholds: memberScores must not be empty');
    expect(() => evaluateClassThresholds([0], [1], [0], [0, 1], [0])).toThrow(
      'evaluateClassThresholds: nonMemberScores and nonMemberLabels must have the same length, got 2 and 1',
    );
  });
});

describe('fitClassThresholds missingClass option', () => {
  it("'zero' reproduces the reference code's threshold 0 for a missing class", () => {
    const fit = fitClassThresholds(trScores, trLabels, teScores, teLabels, { missingClass: 'zero' });
    expect(Array.from(fit.thresholds)).toEqual([0.4, 1, 0]);
    expect(fit.fallbackClasses).toEqual([2]);
    expect(() => fitClassThresholds(trScores, trLabels, teScores, teLabels, { missingClass: 'nan' as never })).toThrow(
      `fitClassThresholds: missingClass must be 'global' or 'zero', got "nan"`,
    );
  });
});
