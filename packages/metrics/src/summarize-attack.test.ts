import { describe, expect, it } from 'vitest';
import { summarizeAttack } from './summarize-attack';

// 5 members {10, 9, 8, 6, 4}, 10 non-members {9, 7, 7, 5, 3, 2, 1, 0, −1, −2} (see tpr-at-fpr.test.ts).
const scores = [10, 9, 8, 6, 4, 9, 7, 7, 5, 3, 2, 1, 0, -1, -2];
const isMember = scores.map((_, i) => i < 5);

describe('summarizeAttack', () => {
  it('summarises AUC, best advantage, TPR@FPR and the ROC (hand-computed)', () => {
    // U: 10 → 10, 9 → 9 + ½ (tie), 8 → 9, 6 → 7, 4 → 6; U = 41.5, AUC = 41.5 / 50 = 0.83.
    const summary = summarizeAttack(scores, isMember);
    expect(summary.auc).toBeCloseTo(0.83, 15);
    expect(summary.advantage).toBeCloseTo(0.6, 15);
    expect(summary.balancedAccuracy).toBeCloseTo(0.8, 15);
    expect(summary.threshold).toBe(4);
    expect(summary.numMembers).toBe(5);
    expect(summary.numNonMembers).toBe(10);
    // Default FPRs 1 %, 0.1 %, 0: all below 1/10, so each is the FPR-0 vertex (0, .2) at threshold 10.
    expect(summary.tprAtFpr.map(({ fpr, tpr, achievedFpr, threshold }) => ({ fpr, tpr, achievedFpr, threshold }))).toEqual([
      { fpr: 0.01, tpr: 0.2, achievedFpr: 0, threshold: 10 },
      { fpr: 0.001, tpr: 0.2, achievedFpr: 0, threshold: 10 },
      { fpr: 0, tpr: 0.2, achievedFpr: 0, threshold: 10 },
    ]);
    expect(Array.from(summary.roc.thresholds).slice(0, 4)).toEqual([Infinity, 10, 9, 8]);
  });

  it('reports the requested FPRs in order', () => {
    const summary = summarizeAttack(scores, isMember, { fprs: [0.35, 0.1] });
    expect(summary.tprAtFpr.map((r) => [r.fpr, r.tpr, r.achievedFpr])).toEqual([
      [0.35, 0.8, 0.3],
      [0.1, 0.6, 0.1],
    ]);
    // strict `<`: at 0.1 only (0, .2) qualifies.
    const strict = summarizeAttack(scores, isMember, { fprs: [0.1], strict: true });
    expect(strict.tprAtFpr[0]).toMatchObject({ fpr: 0.1, tpr: 0.2, achievedFpr: 0 });
  });

  it('rejects bad input', () => {
    expect(() => summarizeAttack(scores, isMember, { fprs: [0.1, 2] })).toThrow('summarizeAttack: fprs[1] must be a finite number in [0, 1], got 2');
    expect(() => summarizeAttack(scores, isMember, { fprs: 0.1 as never })).toThrow('summarizeAttack: fprs must be an array of numbers in [0, 1], got 0.1');
    expect(() => summarizeAttack([1, 2], [true, true])).toThrow('summarizeAttack: isMember must contain both members and non-members');
    expect(() => summarizeAttack([1, NaN], [1, 0])).toThrow('summarizeAttack: scores[1] must not be NaN');
    expect(() => summarizeAttack([1, 2], [1])).toThrow('summarizeAttack: scores and isMember must have the same length, got 2 and 1');
  });
});
