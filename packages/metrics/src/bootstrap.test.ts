import { describe, expect, it } from 'vitest';
import { auc } from './auc';
import { bootstrapAuc, bootstrapAucAndAdvantage, bootstrapAucAndAdvantageOfEach, bootstrapRocStatistic, bootstrapTprAtFpr } from './bootstrap';
import { bestOperatingPoint } from './best-operating-point';
import { rocCurve } from './roc-curve';
import { seededUniform } from './seeded-uniform';
import { tprAtFpr } from './tpr-at-fpr';

function randomData(seed: number, n: number, shift = 0): { scores: number[]; isMember: number[] } {
  const uniform = seededUniform(seed);
  const isMember = Array.from({ length: n }, (_, i) => i % 2);
  const scores = isMember.map((m) => uniform() + shift * m);
  return { scores, isMember };
}

describe('bootstrapAuc', () => {
  it('covers 0.5 for random scores, and its estimate is the plain AUC', () => {
    const { scores, isMember } = randomData(3, 400);
    const interval = bootstrapAuc(scores, isMember, { resamples: 300, seed: 1 });
    expect(interval.estimate).toBe(auc(scores, isMember));
    expect(interval.lower).toBeLessThan(0.5);
    expect(interval.upper).toBeGreaterThan(0.5);
    // AUC standard error for n1 = n0 = 200 near 0.5 is ≈ sqrt((n1+n0+1)/(12·n1·n0)) ≈ 0.029, so the
    // 95 % interval is ≈ 0.11 wide.
    expect(interval.upper - interval.lower).toBeGreaterThan(0.07);
    expect(interval.upper - interval.lower).toBeLessThan(0.16);
    expect(interval.samples).toHaveLength(300);
  });

  it('is deterministic per seed and changes with the seed', () => {
    const { scores, isMember } = randomData(4, 100, 0.3);
    const a = bootstrapAuc(scores, isMember, { resamples: 50, seed: 9 });
    const b = bootstrapAuc(scores, isMember, { resamples: 50, seed: 9 });
    const c = bootstrapAuc(scores, isMember, { resamples: 50, seed: 10 });
    expect(Array.from(a.samples)).toEqual(Array.from(b.samples));
    expect(Array.from(a.samples)).not.toEqual(Array.from(c.samples));
  });

  it('matches a brute-force resample with the same draws (stratified: members first, then non-members)', () => {
    const scores = [0.9, 0.1, 0.4, 0.4, 0.8, 0.3, 0.5];
    const isMember = [1, 0, 1, 0, 1, 0, 0];
    const result = bootstrapAuc(scores, isMember, { resamples: 5, seed: 2 });
    const members = scores.filter((_, i) => isMember[i] === 1).sort((x, y) => x - y);
    const nonMembers = scores.filter((_, i) => isMember[i] === 0).sort((x, y) => x - y);
    const uniform = seededUniform(2);
    for (let r = 0; r < 5; r++) {
      const m = members.map(() => members[Math.floor(uniform() * members.length)]!);
      const n = nonMembers.map(() => nonMembers[Math.floor(uniform() * nonMembers.length)]!);
      expect(result.samples[r]).toBeCloseTo(auc([...m, ...n], [...m.map(() => 1), ...n.map(() => 0)]), 14);
    }
  });

  it('gives a zero-width interval at 1 for perfectly separated scores and accepts a random function', () => {
    const uniform = seededUniform(5);
    const interval = bootstrapAuc([5, 6, 7, 1, 2], [1, 1, 1, 0, 0], { resamples: 20, random: uniform });
    expect([interval.estimate, interval.lower, interval.upper]).toEqual([1, 1, 1]);
  });

  it('rejects bad input', () => {
    expect(() => bootstrapAuc([1, 2], [1, 1])).toThrow('bootstrapAuc: isMember must contain both members and non-members');
    expect(() => bootstrapAuc([1, 2], [1, 0], { resamples: 0 })).toThrow('bootstrapAuc: resamples must be an integer in [1,');
    expect(() => bootstrapAuc([1, 2], [1, 0], { confidence: 95 })).toThrow('bootstrapAuc: confidence must be a number in (0, 1), got 95');
    expect(() => bootstrapAuc([1, 2], [1, 0], { seed: 0.5 })).toThrow('bootstrapAuc: seed must be an integer');
    expect(() => bootstrapAuc([1, 2], [1, 0], { random: 3 as never })).toThrow('bootstrapAuc: random must be a function, got 3');
    expect(() => bootstrapAuc([1, 2], [1, 0], { random: () => 1 })).toThrow('bootstrapAuc: random() must return numbers in [0, 1), got 1');
  });
});

describe('bootstrapTprAtFpr and bootstrapRocStatistic', () => {
  it('estimate the TPR at an FPR and agree with a generic statistic on the same seed', () => {
    const { scores, isMember } = randomData(6, 300, 0.5);
    const interval = bootstrapTprAtFpr(scores, isMember, 0.1, { resamples: 100, seed: 3 });
    expect(interval.estimate).toBe(tprAtFpr(rocCurve(scores, isMember), 0.1).tpr);
    expect(interval.lower).toBeLessThanOrEqual(interval.estimate);
    expect(interval.upper).toBeGreaterThanOrEqual(interval.estimate);
    const generic = bootstrapRocStatistic(scores, isMember, (roc) => tprAtFpr(roc, 0.1).tpr, { resamples: 100, seed: 3 });
    expect(Array.from(generic.samples)).toEqual(Array.from(interval.samples));
  });

  it('reject bad input', () => {
    expect(() => bootstrapTprAtFpr([1, 2], [1, 0], 2)).toThrow('bootstrapTprAtFpr: fpr must be a finite number in [0, 1], got 2');
    expect(() => bootstrapTprAtFpr([1, NaN], [1, 0], 0.1)).toThrow('bootstrapTprAtFpr: scores[1] must not be NaN');
    expect(() => bootstrapRocStatistic([1, 2], [1, 0], 'auc' as never)).toThrow('bootstrapRocStatistic: statistic must be a function');
    expect(() => bootstrapRocStatistic([1, 2], [1, 0], () => NaN)).toThrow('bootstrapRocStatistic: statistic must return a number (not NaN), got NaN');
    expect(() => bootstrapRocStatistic([1, 2, 3], [1, 0], () => 1)).toThrow('bootstrapRocStatistic: scores and isMember must have the same length');
  });
});

describe('bootstrap resamples of tied scores', () => {
  // Ties, -0 and +0 (one value), ±Infinity: a resample's ROC has a vertex per value it drew, as rocCurve of the drawn scores.
  const scores = [0.5, -0, 0, 0.5, Infinity, -Infinity, 0.5, 2, 0, 2, -Infinity, 0.5];
  const isMember = [1, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 0];

  it('give every statistic the ROC curve of the drawn scores (brute-force resample with the same draws)', () => {
    const vertices = bootstrapRocStatistic(scores, isMember, (roc) => roc.fpr.length + roc.tpr.reduce((a, b) => a + b, 0), { resamples: 20, seed: 7 });
    const members = Float64Array.from(scores.filter((_, i) => isMember[i] === 1)).sort();
    const nonMembers = Float64Array.from(scores.filter((_, i) => isMember[i] === 0)).sort();
    const uniform = seededUniform(7);
    for (let r = 0; r < 20; r++) {
      const m = Array.from(members, () => members[Math.floor(uniform() * members.length)]!);
      const n = Array.from(nonMembers, () => nonMembers[Math.floor(uniform() * nonMembers.length)]!);
      const roc = rocCurve([...m, ...n], [...m.map(() => 1), ...n.map(() => 0)]);
      expect(vertices.samples[r]).toBe(roc.fpr.length + roc.tpr.reduce((a, b) => a + b, 0));
    }
  });

  it('bootstrapAucAndAdvantage equals bootstrapAuc and the best-advantage bootstrapRocStatistic with the same options', () => {
    for (const data of [{ scores, isMember }, randomData(8, 301, 0.2)]) {
      const options = { resamples: 40, seed: 11, confidence: 0.9 };
      const both = bootstrapAucAndAdvantage(data.scores, data.isMember, options);
      expect(both.auc).toEqual(bootstrapAuc(data.scores, data.isMember, options));
      expect(both.advantage).toEqual(bootstrapRocStatistic(data.scores, data.isMember, (roc) => bestOperatingPoint(roc).advantage, options));
    }
    expect(() => bootstrapAucAndAdvantage([1, 2], [1, 1])).toThrow('bootstrapAucAndAdvantage: isMember must contain both members and non-members');
  });

  it('bootstrapAucAndAdvantageOfEach equals one bootstrapAucAndAdvantage per score set (the draws are shared)', () => {
    const weak = randomData(9, 301, 0.2);
    const sets = [weak.scores.map((_, i) => scores[i % scores.length]!), weak.scores, weak.scores.map((v) => Math.round(4 * v))];
    const isMember = weak.isMember;
    const options = { resamples: 30, seed: 4 };
    expect(bootstrapAucAndAdvantageOfEach(sets, isMember, options)).toEqual(sets.map((set) => bootstrapAucAndAdvantage(set, isMember, options)));
    expect(() => bootstrapAucAndAdvantageOfEach([], isMember)).toThrow(
      'bootstrapAucAndAdvantageOfEach: scoreSets must be a non-empty array of score arrays, got',
    );
    expect(() => bootstrapAucAndAdvantageOfEach([weak.scores, [1, 2]], isMember)).toThrow(
      'bootstrapAucAndAdvantageOfEach: scores and isMember must have the same length',
    );
  });
});
