import { describe, expect, it } from 'vitest';
import { auc } from './auc';
import { seededUniform } from './seeded-uniform';

/** Brute-force Mann–Whitney U / (n1·n0), ties ½, O(n1·n0). */
function bruteForceAuc(scores: number[], isMember: number[]): number {
  let u = 0;
  let pairs = 0;
  scores.forEach((s, i) => {
    if (isMember[i] !== 1) return;
    scores.forEach((t, j) => {
      if (isMember[j] !== 0) return;
      pairs++;
      u += s > t ? 1 : s === t ? 0.5 : 0;
    });
  });
  return u / pairs;
}

describe('auc', () => {
  it('is 0.5 for scores [9,9,5,5] with members [1,0,1,0] (every member ties a non-member)', () => {
    // Pairs (member, non-member): (9,9) ½, (9,5) 1, (5,9) 0, (5,5) ½ → U = 2, n1·n0 = 4 → 0.5.
    expect(auc([9, 9, 5, 5], [1, 0, 1, 0])).toBe(0.5);
  });

  it('is 1 for a perfectly separated set and 0 for its negation', () => {
    const scores = [0.9, 0.8, 0.7, 0.2, 0.1];
    const isMember = [1, 1, 1, 0, 0];
    expect(auc(scores, isMember)).toBe(1);
    expect(
      auc(
        scores.map((s) => -s),
        isMember,
      ),
    ).toBe(0);
  });

  it('matches a hand-computed value with partial ties', () => {
    // Members {3, 2, 2}, non-members {2, 1}: pairs 3>2, 3>1, 2=2 (½), 2>1, 2=2 (½), 2>1 → U = 5, /6.
    expect(auc([3, 2, 2, 2, 1], [1, 1, 1, 0, 0])).toBe(5 / 6);
  });

  it('equals the brute-force Mann–Whitney statistic on seeded random data with many ties', () => {
    const uniform = seededUniform(11);
    for (let trial = 0; trial < 20; trial++) {
      const n = 5 + Math.floor(uniform() * 200);
      const scores = Array.from({ length: n }, () => Math.floor(uniform() * 10));
      const isMember = Array.from({ length: n }, (_, i) => (i < 2 ? i : uniform() < 0.4 ? 1 : 0));
      expect(auc(scores, isMember)).toBeCloseTo(bruteForceAuc(scores, isMember), 14);
    }
  });

  it('rejects bad input', () => {
    expect(() => auc([], [])).toThrow('auc: scores must not be empty');
    expect(() => auc([NaN, 1], [1, 0])).toThrow('auc: scores[0] must not be NaN');
    expect(() => auc([1, 2], [1, 0, 1])).toThrow('auc: scores and isMember must have the same length, got 2 and 3');
    expect(() => auc([1, 2], [true, true])).toThrow('auc: isMember must contain both members and non-members');
    expect(() => auc([1, 2], null as unknown as number[])).toThrow('auc: isMember must be an array, got null');
  });
});
