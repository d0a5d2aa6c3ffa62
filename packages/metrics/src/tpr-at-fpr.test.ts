import { describe, expect, it } from 'vitest';
import { rocCurve } from './roc-curve';
import { tprAtFpr } from './tpr-at-fpr';

// 5 members, 10 non-members. Descending blocks and the ROC vertices (fpr, tpr) after each:
// +Inf (0, 0) | 10: m → (0, .2) | 9: m+n → (.1, .4) | 8: m → (.1, .6) | 7: 2n → (.3, .6)
// | 6: m → (.3, .8) | 5: n → (.4, .8) | 4: m → (.4, 1) | 3, 2, 1, 0, −1, −2: n each → … (1, 1).
const members = [10, 9, 8, 6, 4];
const nonMembers = [9, 7, 7, 5, 3, 2, 1, 0, -1, -2];
const roc = rocCurve([...members, ...nonMembers], [...members.map(() => 1), ...nonMembers.map(() => 0)]);

describe('tprAtFpr', () => {
  it('returns the largest TPR among vertices with FPR ≤ target (step, no interpolation)', () => {
    // fpr ≤ 0.1 admits (.1, .4) and (.1, .6): the `≤` convention keeps 0.6 (strict `<` would give 0.2).
    expect(tprAtFpr(roc, 0.1)).toMatchObject({ fpr: 0.1, tpr: 0.6, achievedFpr: 0.1, threshold: 8, truePositives: 3, falsePositives: 1 });
    // Between vertices: 0.35 → the (.3, .8) vertex at threshold 6; no interpolation toward (.4, .8).
    expect(tprAtFpr(roc, 0.35)).toMatchObject({ fpr: 0.35, tpr: 0.8, achievedFpr: 0.3, threshold: 6 });
    expect(tprAtFpr(roc, 0.4)).toMatchObject({ tpr: 1, achievedFpr: 0.4, threshold: 4 });
    expect(tprAtFpr(roc, 1)).toMatchObject({ tpr: 1, achievedFpr: 1, threshold: -2 });
  });

  it('at FPR 0 (or below 1/n) returns the TPR reachable without any false positive', () => {
    expect(tprAtFpr(roc, 0)).toMatchObject({ fpr: 0, tpr: 0.2, achievedFpr: 0, threshold: 10, numMembers: 5, numNonMembers: 10 });
    expect(tprAtFpr(roc, 0.05)).toMatchObject({ tpr: 0.2, achievedFpr: 0, threshold: 10 });
    // The top block holds a non-member: only the (0, 0) vertex qualifies, threshold +Infinity.
    const tied = rocCurve([5, 5, 1], [1, 0, 0]);
    expect(tprAtFpr(tied, 0)).toMatchObject({ tpr: 0, achievedFpr: 0, threshold: Infinity, truePositives: 0 });
  });

  it("offers Carlini's strict `<` convention as an option", () => {
    // fpr < 0.1 admits only (0, 0) and (0, .2): 0.2 at threshold 10; at target 0 the (0, 0) vertex.
    expect(tprAtFpr(roc, 0.1, { strict: true })).toMatchObject({ tpr: 0.2, achievedFpr: 0, threshold: 10 });
    expect(tprAtFpr(roc, 0, { strict: true })).toMatchObject({ tpr: 0, achievedFpr: 0, threshold: Infinity });
  });

  it('rejects bad input', () => {
    expect(() => tprAtFpr(roc, 1.5)).toThrow('tprAtFpr: fpr must be a finite number in [0, 1], got 1.5');
    expect(() => tprAtFpr(roc, -0.1)).toThrow('tprAtFpr: fpr must be a finite number in [0, 1], got -0.1');
    expect(() => tprAtFpr(roc, NaN)).toThrow('got NaN');
    expect(() => tprAtFpr({ fpr: [0], tpr: [0] } as never, 0.1)).toThrow('tprAtFpr: roc must be a RocCurve from rocCurve()');
    expect(() => tprAtFpr(null as never, 0.1)).toThrow('got null');
  });
});
