import { describe, expect, it } from 'vitest';
import { selThresholdAttack } from './sel-threshold-attack';

// Known data (fitting):
//   global: tr [5, 4, 3, 2] vs ref [1, 3.5, .5, 2.5]; ascending counts .5:4 1:5 2:6 2.5:5 3:6 3.5:5
//     4:6 5:5 → threshold 2 (smallest maximiser).
//   class 0: tr [5, 4] vs ref [1, 3.5] → counts 1:2 3.5:3 4:4 5:3 → 4.
//   class 1: tr [3, 2] vs ref [.5, 2.5] → counts .5:2 2:3 2.5:2 3:3 → 2.
const known = {
  memberScores: [5, 4, 3, 2],
  memberLabels: [0, 0, 1, 1],
  nonMemberScores: [1, 3.5, 0.5, 2.5],
  nonMemberLabels: [0, 0, 1, 1],
};
// Evaluation: members 4.5(c0) 4.2(c0) 2.2(c1) 1.5(c1); non-members 3.9(c0) 1(c0) 1.9(c1) 0(c1).
//   global (≥ 2): members 3 right, non-members 3 right (3.9 wrong) → 6/8 = .75.
//   per class (c0 ≥ 4, c1 ≥ 2): members 4.5, 4.2, 2.2 → 3; non-members 3.9, 1, 1.9, 0 → 4 → 7/8.
const evaluation = {
  memberScores: [4.5, 4.2, 2.2, 1.5],
  memberLabels: [0, 0, 1, 1],
  nonMemberScores: [3.9, 1, 1.9, 0],
  nonMemberLabels: [0, 0, 1, 1],
};

describe('selThresholdAttack', () => {
  it('reports max(global, per-class) plain accuracy (hand-computed)', () => {
    const result = selThresholdAttack(known, evaluation);
    expect(result.globalThreshold).toBe(2);
    expect(Array.from(result.classThresholds)).toEqual([4, 2]);
    expect(result.globalAccuracy).toBe(0.75);
    expect(result.classAccuracy).toBe(0.875);
    expect(result.accuracy).toBe(0.875);
    expect(result.fallbackClasses).toEqual([]);
  });

  it('gives a class with no known example the global threshold (A5)', () => {
    // Class 2 appears only in the evaluation data: its member (score 3 ≥ global 2) counts as correct.
    const result = selThresholdAttack(known, { ...evaluation, memberScores: [3], memberLabels: [2] });
    expect(result.fallbackClasses).toEqual([2]);
    expect(result.classThresholds[2]).toBe(2);
    // global: member 3 ✓, non-members 1, 1.9, 0 ✓ → 4/5; class: member 3 ✓ (global), non-members all ✓ → 5/5.
    expect(result.globalAccuracy).toBe(0.8);
    expect(result.classAccuracy).toBe(1);
    // SEL's own behaviour: threshold 0 for the empty class (the member 3 ≥ 0 is still right here).
    const zero = selThresholdAttack(known, { ...evaluation, memberScores: [3], memberLabels: [2] }, { missingClass: 'zero' });
    expect(zero.classThresholds[2]).toBe(0);
  });

  it('rejects bad input', () => {
    expect(() => selThresholdAttack(null as never, evaluation)).toThrow('selThresholdAttack: known must be {memberScores, memberLabels');
    expect(() => selThresholdAttack({ ...known, memberScores: [] }, evaluation)).toThrow('selThresholdAttack: known.memberScores must not be empty');
    expect(() => selThresholdAttack(known, { ...evaluation, nonMemberLabels: [0] })).toThrow(
      'selThresholdAttack: evaluation.nonMemberScores and evaluation.nonMemberLabels must have the same length, got 4 and 1',
    );
    expect(() => selThresholdAttack(known, { ...evaluation, memberScores: [NaN, 1, 1, 1] })).toThrow(
      'selThresholdAttack: evaluation.memberScores[0] must not be NaN',
    );
    expect(() => selThresholdAttack(known, evaluation, { numClasses: 1 })).toThrow('selThresholdAttack: every label must be < numClasses = 1, got label 1');
  });
});
