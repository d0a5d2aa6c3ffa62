import { describe, expect, it } from 'vitest';
import { rowUncertainty } from './row-uncertainty';

const n = 500;
// 80 % of members and 60 % of non-members correct; a loss attack scoring members higher.
const input = {
  membersCorrect: Uint8Array.from({ length: n }, (_, i) => (i % 5 < 4 ? 1 : 0)),
  nonMembersCorrect: Uint8Array.from({ length: n }, (_, i) => (i % 5 < 3 ? 1 : 0)),
  membersLoss: Float64Array.from({ length: n }, (_, i) => (i % 7) / 7),
  nonMembersLoss: Float64Array.from({ length: n }, (_, i) => 0.5 + (i % 11) / 11),
  attacks: [
    { name: 'loss', scores: Float64Array.from({ length: 2 * n }, (_, i) => (i < n ? 1 : 0) + Math.sin(i)) },
    {
      name: 'fixed',
      scores: Float64Array.from({ length: 2 * n }, (_, i) => Math.cos(i)),
      decisions: Uint8Array.from({ length: 2 * n }, (_, i) => (i < n ? i % 2 : i % 3 === 0 ? 1 : 0)),
    },
  ],
  best: 'loss',
  seed: 11,
};

describe('rowUncertainty', () => {
  it('gives accuracy SEs close to the binomial formula and positive SEs for every number', () => {
    const se = rowUncertainty(input);
    expect(se.trainAccuracy / Math.sqrt((0.8 * 0.2) / n)).toBeGreaterThan(0.8);
    expect(se.trainAccuracy / Math.sqrt((0.8 * 0.2) / n)).toBeLessThan(1.2);
    expect(se.testAccuracy / Math.sqrt((0.6 * 0.4) / n)).toBeGreaterThan(0.8);
    expect(se.testAccuracy / Math.sqrt((0.6 * 0.4) / n)).toBeLessThan(1.2);
    for (const v of [se.lossGap, se.maxAdvantage, se.p1, se.attacks.loss!.advantage, se.attacks.loss!.auc, se.attacks.fixed!.advantage])
      expect(v).toBeGreaterThan(0);
    // Fixed decisions: TPR 0.5, FPR 1/3 → SE ≈ sqrt(0.25/n + (2/9)/n).
    expect(se.attacks.fixed!.advantage / Math.sqrt(0.25 / n + 2 / 9 / n)).toBeGreaterThan(0.8);
    expect(se.attacks.fixed!.advantage / Math.sqrt(0.25 / n + 2 / 9 / n)).toBeLessThan(1.2);
    expect(se.maxAdvantage).toBe(se.attacks.loss!.advantage);
  });

  it('is deterministic for a seed', () => {
    expect(rowUncertainty(input)).toEqual(rowUncertainty(input));
    expect(rowUncertainty({ ...input, seed: 12 }).testAccuracy).not.toBe(rowUncertainty(input).testAccuracy);
  });

  it('refuses attack scores that do not cover the examples', () => {
    expect(() => rowUncertainty({ ...input, attacks: [{ name: 'x', scores: new Float64Array(n) }] })).toThrow(/nonMemberScores must not be empty/);
  });
});
