import { describe, expect, it } from 'vitest';
import { auc } from './auc';
import { blindBaseline } from './blind-baseline';
import { blindLabelBaseline } from './blind-label-baseline';
import { seededUniform } from './seeded-uniform';

/** n examples of d standard-normal-ish features (sum of uniforms), members every other row, members shifted by `shift` on feature 0. */
function records(n: number, d: number, shift: number, seed: number): { x: Float32Array; isMember: Uint8Array } {
  const random = seededUniform(seed);
  const isMember = Uint8Array.from({ length: n }, (_, i) => i % 2);
  const x = new Float32Array(n * d);
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) x[i * d + j] = random() + random() + random() - 1.5 + (j === 0 ? shift * isMember[i]! : 0);
  return { x, isMember };
}

describe('blindBaseline', () => {
  it('finds a member set shifted on one feature of 20', () => {
    const { x, isMember } = records(800, 20, 0.5, 1);
    const result = blindBaseline(x, 20, isMember);
    expect(result.auc.estimate).toBeGreaterThan(0.75);
    expect(result.auc.lower).toBeGreaterThan(0.7);
    expect(result.folds).toBe(2);
    expect(result.numFeatures).toBe(20);
  });

  it('scores out of fold: on pure noise with 50 features and 120 examples its AUC averages 0.5, while a copy of each row in the training folds leaks', () => {
    // With d close to n a logistic regression separates its own training rows; cross-fitted it cannot.
    const runs = Array.from({ length: 10 }, (_, s) => {
      const { x, isMember } = records(120, 50, 0, 100 + s);
      const fit = blindBaseline(x, 50, isMember, { iterations: 300, l2: 1e-4 });
      // Every row twice: a row's copy is in another fold about 4 times in 5, so a model that saw it scores it.
      const leaky = blindBaseline(Float32Array.from([...x, ...x]), 50, Uint8Array.from([...isMember, ...isMember]), { iterations: 300, l2: 1e-4 });
      return { clean: fit.auc.estimate, leaky: leaky.auc.estimate };
    });
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    expect(Math.abs(mean(runs.map((r) => r.clean)) - 0.5)).toBeLessThan(0.04);
    expect(mean(runs.map((r) => r.leaky))).toBeGreaterThan(0.65);
  });

  it('is deterministic for a seed and uses stratified folds', () => {
    const { x, isMember } = records(200, 5, 0.3, 3);
    const a = blindBaseline(x, 5, isMember, { seed: 7 });
    expect(blindBaseline(x, 5, isMember, { seed: 7 }).scores).toEqual(a.scores);
    // The AUC is the mean of the folds' AUCs (each fold scored by its own model).
    const perFold = Array.from({ length: a.folds }, (_, k) => {
      const rows = Array.from(a.foldOf.keys()).filter((i) => a.foldOf[i] === k);
      return auc(
        rows.map((i) => a.scores[i]!),
        rows.map((i) => isMember[i]!),
      );
    });
    expect(a.auc.estimate).toBeCloseTo(perFold.reduce((x, y) => x + y, 0) / a.folds, 12);
    expect(blindBaseline(x, 5, isMember, { seed: 8 }).scores).not.toEqual(a.scores);
  });

  it('ignores constant features and uses fewer folds than asked when a class is small', () => {
    const x = Float32Array.from([1, 0, 1, 1, 1, 0, 1, 1, 1, 0]);
    const result = blindBaseline(x, 2, [1, 1, 0, 0, 0], { folds: 5 });
    expect(result.folds).toBe(2);
    expect(result.scores.every(Number.isFinite)).toBe(true);
  });

  it('names the bad argument', () => {
    expect(() => blindBaseline(new Float32Array(5), 2, [1, 0])).toThrow(/features must hold numFeatures \(2\) values per example, got 5 values for 2 examples/);
    expect(() => blindBaseline(new Float32Array(4), 1, [1, 0, 0, 0])).toThrow(/at least 2 members and 2 non-members, got 1 and 3/);
    expect(() => blindBaseline(Float32Array.from([NaN, 1, 1, 1]), 1, [1, 1, 0, 0])).toThrow(/features\[0\] must be a finite number, got NaN/);
    expect(() => blindBaseline(new Float32Array(4), 1, [1, 1, 0, 0], { l2: 0 })).toThrow(/l2 must be a finite number/);
  });
});

describe('blindLabelBaseline', () => {
  it('scores each example by the log-odds of its class on the other folds, with one pseudo-count per side', () => {
    const labels = [0, 0, 0, 0, 1, 1, 0, 0, 1, 1, 1, 1, 2, 2];
    const isMember = [1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0];
    const result = blindLabelBaseline(labels, isMember, { folds: 2 });
    result.scores.forEach((score, i) => {
      const other = labels.map((_, j) => j).filter((j) => result.foldOf[j] !== result.foldOf[i] && labels[j] === labels[i]);
      const members = other.filter((j) => isMember[j] === 1).length;
      expect(score).toBeCloseTo(Math.log((members + 1) / (other.length - members + 1)), 12);
    });
    expect(result.numFeatures).toBe(3);
  });

  it('is calibrated on random labels of 100 classes: the AUC averages 0.5 (a class-stratified split would not)', () => {
    const aucs = Array.from({ length: 40 }, (_, s) => {
      const random = seededUniform(200 + s);
      const labels = Array.from({ length: 1600 }, () => Math.floor(random() * 100));
      return blindLabelBaseline(
        labels,
        labels.map((_, i) => (i < 800 ? 1 : 0)),
      ).auc.estimate;
    });
    expect(Math.abs(aucs.reduce((a, b) => a + b, 0) / aucs.length - 0.5)).toBeLessThan(0.01);
  });

  it('finds members drawn from other classes than the non-members', () => {
    const labels = Array.from({ length: 400 }, (_, i) => (i < 200 ? i % 5 : 3 + (i % 5)));
    const isMember = labels.map((_, i) => (i < 200 ? 1 : 0));
    expect(blindLabelBaseline(labels, isMember).auc.estimate).toBeGreaterThan(0.75);
  });

  it('names a non-integer label', () => {
    expect(() => blindLabelBaseline([0, 1.5, 0, 1], [1, 1, 0, 0])).toThrow(/labels\[1\] must be an integer, got 1.5/);
  });
});
