import { describe, expect, it } from 'vitest';
import { gradientNormAuc } from './grad-x-auc';

describe('gradientNormAuc', () => {
  it('scores −‖g‖: members with smaller gradients give AUC 1 (known answer)', () => {
    expect(gradientNormAuc([1, 2], [3, 4])).toBe(1);
    expect(gradientNormAuc([3, 4], [1, 2])).toBe(0);
  });

  it('counts pairs and ties as the Mann–Whitney statistic (hand-computed)', () => {
    // Member/non-member pairs (1,2) (1,4) (3,2) (3,4): member smaller in 3 of 4 → 0.75.
    expect(gradientNormAuc([1, 3], [2, 4])).toBe(0.75);
    // One tie (2 vs 2) counts ½: pairs (2,2)=½, (2,5)=1 → 1.5 / 2.
    expect(gradientNormAuc([2], [2, 5])).toBe(0.75);
  });

  it('refuses an empty side with a clear error', () => {
    expect(() => gradientNormAuc([], [1])).toThrow(/auc/);
  });
});
