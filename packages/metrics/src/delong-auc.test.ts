import { describe, expect, it } from 'vitest';
import { auc } from './auc';
import { delongAuc, delongAucDifference } from './delong-auc';
import { seededUniform } from './seeded-uniform';

describe('delongAuc', () => {
  it('matches a hand calculation on members [0.9, 0.8, 0.4] and non-members [0.7, 0.3]', () => {
    // V10 = [1, 1, 0.5] (share of non-members each member beats), V01 = [2/3, 1]; AUC = 5/6.
    // S10 = var([1, 1, .5], ddof 1) = 1/12, S01 = var([2/3, 1], ddof 1) = 1/18; Var = S10/3 + S01/2 = 1/18.
    const result = delongAuc([0.9, 0.8, 0.4, 0.7, 0.3], [1, 1, 1, 0, 0]);
    expect(result.estimate).toBeCloseTo(5 / 6, 12);
    expect(result.se).toBeCloseTo(Math.sqrt(1 / 18), 12);
    expect(result.lower).toBeCloseTo(5 / 6 - 1.959963984540054 * Math.sqrt(1 / 18), 9);
    expect(result.upper).toBe(1);
    expect(result.confidence).toBe(0.95);
  });

  it('counts ties ½ and equals the rank AUC on random scores with ties', () => {
    const random = seededUniform(3);
    const scores = Array.from({ length: 300 }, () => Math.round(random() * 20));
    const isMember = scores.map((_, i) => (i % 3 === 0 ? 1 : 0));
    expect(delongAuc(scores, isMember).estimate).toBeCloseTo(auc(scores, isMember), 12);
  });

  it("with groups, averages the groups' AUCs and their variances (Σ var / K²)", () => {
    // Group 0: the hand-calculated set above (AUC 5/6, Var 1/18); group 1: members [1, 2], non-members [3, 4] (AUC 0, Var 0).
    const result = delongAuc([0.9, 0.8, 0.4, 0.7, 0.3, 1, 2, 3, 4], [1, 1, 1, 0, 0, 1, 1, 0, 0], { groups: [0, 0, 0, 0, 0, 1, 1, 1, 1] });
    expect(result.estimate).toBeCloseTo(5 / 12, 12);
    expect(result.se).toBeCloseTo(Math.sqrt(1 / 18) / 2, 12);
    expect(() => delongAuc([1, 2, 3, 4], [1, 0, 1, 1], { groups: [0, 0, 1, 1] })).toThrow(/both members and non-members, got 2 members and 0 non-members/);
  });

  it('refuses one class only and a confidence outside (0, 1)', () => {
    expect(() => delongAuc([1, 2], [1, 1])).toThrow(/both members and non-members/);
    expect(() => delongAuc([1, 2], [1, 0], { confidence: 1 })).toThrow(/confidence must be a number in \(0, 1\), got 1/);
  });
});

describe('delongAucDifference', () => {
  it('is 0 with SE 0 for a scorer against itself', () => {
    const scores = [0.9, 0.8, 0.4, 0.7, 0.3];
    const result = delongAucDifference(scores, scores, [1, 1, 1, 0, 0]);
    expect(result).toMatchObject({ estimate: 0, se: 0, lower: 0, upper: 0 });
  });

  it('matches a hand calculation of the paired variance', () => {
    // A: the scores above (V10 = [1, 1, .5], V01 = [2/3, 1]); B: members [0.1, 0.2, 0.3], non-members [0.4, 0.5]
    // (V10 = [0, 0, 0], V01 = [0, 0]): the difference is 5/6 and B's components are constant, so its
    // variance is A's alone, 1/18.
    const result = delongAucDifference([0.9, 0.8, 0.4, 0.7, 0.3], [0.1, 0.2, 0.3, 0.4, 0.5], [1, 1, 1, 0, 0]);
    expect(result.estimate).toBeCloseTo(5 / 6, 12);
    expect(result.se).toBeCloseTo(Math.sqrt(1 / 18), 12);
  });

  it('has a smaller SE than the unpaired one when the scorers agree (positive covariance)', () => {
    const random = seededUniform(5);
    const isMember = Array.from({ length: 400 }, (_, i) => i % 2);
    const a = isMember.map((m) => m * 0.5 + random());
    const b = a.map((v) => v + 0.2 * random());
    const paired = delongAucDifference(a, b, isMember).se;
    expect(paired).toBeLessThan(0.5 * Math.hypot(delongAuc(a, isMember).se, delongAuc(b, isMember).se));
  });

  it('refuses score sets of different lengths', () => {
    expect(() => delongAucDifference([1, 2, 3], [1, 2], [1, 0, 1])).toThrow(/scoresA and scoresB must have the same length, got 3 and 2/);
  });
});
