import { describe, expect, it } from 'vitest';
import { auc } from './auc';
import { operatingPoint } from './operating-point';
import { rocCurve } from './roc-curve';
import { seededUniform } from './seeded-uniform';

const arr = (a: Float64Array): number[] => Array.from(a);

describe('rocCurve', () => {
  it('puts vertices only at the ends of tie blocks (hand-computed)', () => {
    // Scores 9,9 (1 member, 1 non-member), 7 (member), 5,5,5 (1 member, 2 non-members).
    // Blocks in descending order: {9: m1 n1}, {7: m1}, {5: m1 n2}; 3 members, 3 non-members.
    // Vertices: (0,0)@+Inf, after 9: (1/3, 1/3), after 7: (1/3, 2/3), after 5: (1, 1).
    const roc = rocCurve([5, 9, 7, 5, 9, 5], [0, 1, 1, 1, 0, 0]);
    expect(arr(roc.thresholds)).toEqual([Infinity, 9, 7, 5]);
    expect(arr(roc.fpr)).toEqual([0, 1 / 3, 1 / 3, 1]);
    expect(arr(roc.tpr)).toEqual([0, 1 / 3, 2 / 3, 1]);
    expect(roc.numMembers).toBe(3);
    expect(roc.numNonMembers).toBe(3);
  });

  it('accepts booleans, typed arrays, ±Infinity and joins -0 with +0', () => {
    const roc = rocCurve(new Float32Array([-0, 0, Infinity, -Infinity]), [true, false, true, false]);
    expect(arr(roc.thresholds)).toEqual([Infinity, Infinity, 0, -Infinity]);
    expect(arr(roc.tpr)).toEqual([0, 0.5, 1, 1]);
    expect(arr(roc.fpr)).toEqual([0, 0, 0.5, 1]);
  });

  it('gives one step from (0,0) to (1,1) when every score ties', () => {
    const roc = rocCurve([3, 3, 3], [1, 0, 0]);
    expect(arr(roc.fpr)).toEqual([0, 1]);
    expect(arr(roc.tpr)).toEqual([0, 1]);
    expect(arr(roc.thresholds)).toEqual([Infinity, 3]);
  });

  it('has one vertex per distinct score, each equal to brute-force counting, and trapezoid area = AUC', () => {
    const uniform = seededUniform(17);
    for (let trial = 0; trial < 10; trial++) {
      const n = 3 + Math.floor(uniform() * 80);
      const scores = Array.from({ length: n }, () => Math.floor(uniform() * 8));
      const isMember = Array.from({ length: n }, (_, i) => (i < 2 ? i : uniform() < 0.5 ? 1 : 0));
      const roc = rocCurve(scores, isMember);
      expect(roc.thresholds.length).toBe(new Set(scores).size + 1);
      let area = 0;
      for (let k = 1; k < roc.fpr.length; k++) {
        const point = operatingPoint(scores, isMember, roc.thresholds[k]!);
        expect([roc.fpr[k], roc.tpr[k]]).toEqual([point.fpr, point.tpr]);
        area += ((roc.fpr[k]! - roc.fpr[k - 1]!) * (roc.tpr[k]! + roc.tpr[k - 1]!)) / 2;
      }
      expect(area).toBeCloseTo(auc(scores, isMember), 12);
    }
  });

  it('rejects bad input with a clear message', () => {
    expect(() => rocCurve([], [])).toThrow('rocCurve: scores must not be empty, got an empty array');
    expect(() => rocCurve([1, NaN], [1, 0])).toThrow('rocCurve: scores[1] must not be NaN, got NaN');
    expect(() => rocCurve([1, 2], [1])).toThrow('rocCurve: scores and isMember must have the same length, got 2 and 1');
    expect(() => rocCurve([1, 2], [1, 1])).toThrow('rocCurve: isMember must contain both members and non-members, got 2 members and 0 non-members');
    expect(() => rocCurve([1, 2], [0, 0])).toThrow('got 0 members and 2 non-members');
    expect(() => rocCurve([1, 2], [1, 2])).toThrow('rocCurve: isMember[1] must be a boolean or 0/1, got 2');
    expect(() => rocCurve([1, '2'] as unknown as number[], [1, 0])).toThrow('rocCurve: scores[1] must be a number, got "2"');
    expect(() => rocCurve('12' as unknown as number[], [1, 0])).toThrow('rocCurve: scores must be an array of numbers, got "12"');
  });
});
