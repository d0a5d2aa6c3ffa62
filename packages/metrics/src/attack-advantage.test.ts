import { describe, expect, it } from 'vitest';
import { attackAdvantage } from './attack-advantage';
import { balancedAccuracy } from './balanced-accuracy';

const scores = [10, 9, 8, 6, 4, 9, 7, 7, 5, 3, 2, 1, 0, -1, -2];
const isMember = scores.map((_, i) => (i < 5 ? 1 : 0));

describe('attackAdvantage and balancedAccuracy', () => {
  it('take the best threshold by default (hand-computed: (fpr, tpr) = (.4, 1) at threshold 4)', () => {
    expect(attackAdvantage(scores, isMember)).toBeCloseTo(0.6, 15);
    expect(balancedAccuracy(scores, isMember)).toBeCloseTo(0.8, 15);
  });

  it('evaluate a fixed threshold, negative advantage included (nothing clamped)', () => {
    // ≥ 7: TPR 3/5, FPR 3/10 → advantage .3, balanced accuracy ½(.6 + .7) = .65.
    expect(attackAdvantage(scores, isMember, { threshold: 7 })).toBeCloseTo(0.3, 15);
    expect(balancedAccuracy(scores, isMember, { threshold: 7 })).toBeCloseTo(0.65, 15);
    // Member scores 1, non-member 2, threshold 2: TPR 0, FPR 1.
    expect(attackAdvantage([1, 2], [1, 0], { threshold: 2 })).toBe(-1);
    expect(balancedAccuracy([1, 2], [1, 0], { threshold: 2 })).toBe(0);
  });

  it('equal 2·balancedAccuracy − 1 = advantage', () => {
    const adv = attackAdvantage(scores, isMember, { threshold: 5 });
    expect(2 * balancedAccuracy(scores, isMember, { threshold: 5 }) - 1).toBeCloseTo(adv, 15);
  });

  it('reject bad input naming the function', () => {
    expect(() => attackAdvantage([1, NaN], [1, 0])).toThrow('attackAdvantage: scores[1] must not be NaN');
    expect(() => attackAdvantage([1, 2], [1, 0], { threshold: NaN })).toThrow('attackAdvantage: threshold must be a number (not NaN)');
    expect(() => attackAdvantage([1, 2], [1, 1])).toThrow('attackAdvantage: isMember must contain both members and non-members');
    expect(() => balancedAccuracy([], [])).toThrow('balancedAccuracy: scores must not be empty');
    expect(() => balancedAccuracy([1, 2], [1])).toThrow('balancedAccuracy: scores and isMember must have the same length, got 2 and 1');
    expect(() => balancedAccuracy([1, 2], [0, 0], { threshold: 1 })).toThrow('balancedAccuracy: isMember must contain both');
  });
});
