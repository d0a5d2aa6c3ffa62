import { describe, expect, it } from 'vitest';
import { bestOperatingPoint } from './best-operating-point';
import { operatingPoint } from './operating-point';
import { rocCurve } from './roc-curve';

// 5 members {10, 9, 8, 6, 4}, 10 non-members {9, 7, 7, 5, 3, 2, 1, 0, −1, −2} (see tpr-at-fpr.test.ts).
const scores = [10, 9, 8, 6, 4, 9, 7, 7, 5, 3, 2, 1, 0, -1, -2];
const isMember = scores.map((_, i) => (i < 5 ? 1 : 0));

describe('operatingPoint', () => {
  it('counts scores ≥ threshold (hand-computed)', () => {
    // ≥ 7: members 10, 9, 8 (3/5); non-members 9, 7, 7 (3/10).
    expect(operatingPoint(scores, isMember, 7)).toEqual({
      threshold: 7,
      tpr: 0.6,
      fpr: 0.3,
      truePositives: 3,
      falsePositives: 3,
      numMembers: 5,
      numNonMembers: 10,
    });
    expect(operatingPoint(scores, isMember, Infinity)).toMatchObject({ tpr: 0, fpr: 0 });
    expect(operatingPoint(scores, isMember, -Infinity)).toMatchObject({ tpr: 1, fpr: 1 });
  });

  it('rejects bad input', () => {
    expect(() => operatingPoint(scores, isMember, NaN)).toThrow('operatingPoint: threshold must be a number (not NaN), got NaN');
    expect(() => operatingPoint([1], [1, 0], 0)).toThrow('operatingPoint: scores and isMember must have the same length');
    expect(() => operatingPoint([1, 2], [0, 0], 0)).toThrow('operatingPoint: isMember must contain both members and non-members');
  });
});

describe('bestOperatingPoint', () => {
  it('finds the vertex with the largest TPR − FPR', () => {
    // Vertex advantages: .2, .3, .5, .3, .5, .4, .6 (at threshold 4: (.4, 1)), then .5, .4, …
    const best = bestOperatingPoint(rocCurve(scores, isMember));
    expect(best.threshold).toBe(4);
    expect(best.advantage).toBeCloseTo(0.6, 15);
    expect(best.balancedAccuracy).toBeCloseTo(0.8, 15);
    expect(best).toMatchObject({ tpr: 1, fpr: 0.4, truePositives: 5, falsePositives: 4 });
  });

  it('keeps the first (highest-threshold) maximiser on ties and 0 for a useless attack', () => {
    // Vertices (0,0), (.5,.5)@2, (1,1)@1: every advantage is 0, so the (0,0) vertex wins.
    const best = bestOperatingPoint(rocCurve([2, 2, 1, 1], [1, 0, 1, 0]));
    expect(best).toMatchObject({ threshold: Infinity, advantage: 0, balancedAccuracy: 0.5 });
  });

  it('rejects a non-curve', () => {
    expect(() => bestOperatingPoint({} as never)).toThrow('bestOperatingPoint: roc must be a RocCurve');
  });
});
