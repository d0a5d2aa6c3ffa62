import { describe, expect, it } from 'vitest';
import { auc } from './auc';
import { stratifiedBootstrapSe, weightedMean, weightedScores } from './stratified-bootstrap';

describe('stratifiedBootstrapSe', () => {
  it('gives the SE of a proportion close to the binomial formula sqrt(p(1-p)/n)', () => {
    const n = 400;
    const correct = Float64Array.from({ length: n }, (_, i) => (i % 10 < 7 ? 1 : 0)); // p = 0.7
    const se = stratifiedBootstrapSe(n, n, (r) => ({ acc: weightedMean(correct, r.nonMembers) }), { resamples: 400, seed: 1 });
    const binomial = Math.sqrt((0.7 * 0.3) / n);
    expect(se.acc).toBeGreaterThan(0.85 * binomial);
    expect(se.acc).toBeLessThan(1.15 * binomial);
  });

  it('is deterministic for a seed and differs across seeds', () => {
    const values = Float64Array.from({ length: 50 }, (_, i) => Math.sin(i));
    const stat = (r: { members: Float64Array }) => ({ mean: weightedMean(values, r.members) });
    const a = stratifiedBootstrapSe(50, 30, stat, { seed: 5 });
    expect(stratifiedBootstrapSe(50, 30, stat, { seed: 5 })).toEqual(a);
    expect(stratifiedBootstrapSe(50, 30, stat, { seed: 6 }).mean).not.toBe(a.mean);
  });

  it('resamples members and non-members to their own counts', () => {
    stratifiedBootstrapSe(
      7,
      3,
      (r) => {
        expect(r.members.reduce((s, w) => s + w, 0)).toBe(7);
        expect(r.nonMembers.reduce((s, w) => s + w, 0)).toBe(3);
        return { x: 0 };
      },
      { resamples: 5 },
    );
  });

  it('rejects bad counts and resamples naming the argument', () => {
    expect(() => stratifiedBootstrapSe(0, 3, () => ({}))).toThrow(/numMembers/);
    expect(() => stratifiedBootstrapSe(3, 3, () => ({}), { resamples: 1 })).toThrow(/resamples/);
    expect(() => stratifiedBootstrapSe(3, 3, 5 as never)).toThrow(/statistics must be a function/);
  });
});

describe('weightedScores', () => {
  it('with unit weights gives the AUC and the best-threshold advantage of the scores', () => {
    const m = [0.9, 0.8, 0.4, 0.35];
    const n = [0.7, 0.3, 0.2, 0.1, 0.05];
    const w = weightedScores(m, n);
    const ones = { members: new Float64Array(4).fill(1), nonMembers: new Float64Array(5).fill(1) };
    expect(w.auc(ones)).toBeCloseTo(auc([...m, ...n], [1, 1, 1, 1, 0, 0, 0, 0, 0]), 12);
    // Threshold 0.35: TPR 1, FPR 1/5.
    expect(w.bestAdvantage(ones)).toBeCloseTo(0.8, 12);
    expect(w.both(ones)).toEqual({ auc: w.auc(ones), bestAdvantage: w.bestAdvantage(ones) });
    // Weighting a member by 0 drops it: without 0.35 and 0.4 the best is threshold 0.8, TPR 1, FPR 0.
    expect(w.bestAdvantage({ members: Float64Array.from([1, 1, 0, 0]), nonMembers: ones.nonMembers })).toBeCloseTo(1, 12);
    expect(() => w.auc({ members: new Float64Array(3), nonMembers: ones.nonMembers })).toThrow(/resample sizes must be 4 members/);
  });
});
