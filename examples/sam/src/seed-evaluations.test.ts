import { combineSeeds } from '@mia/experiments/reproduce';
import { describe, expect, it } from 'vitest';
import { attackAccuracyOf } from './column-claims';
import { mergeSeedEvaluations, type ColumnEvaluation } from './evaluate-columns';
import type { ModelEvaluation } from './evaluate-model';

const evaluation = (test: number, best: number[]): ModelEvaluation => ({
  trainAccuracy: 1,
  testAccuracy: test,
  single: { NN: best.map((b) => b - 0.01), Confidence: best },
  multi: { 'Feature flip': best.map((b) => b - 0.02) },
  bestSingle: best,
  bestMulti: best.map((b) => b - 0.02),
});

/** A column with 2,000 members and non-members (1,000 per side in each evaluation half) and the given training seeds. */
const column = (seeds: number[]): ColumnEvaluation =>
  ({ seeds, results: { partition: { sizes: { target_train: 2000, target_test: 2000 } } } }) as unknown as ColumnEvaluation;

describe('SAM evaluations over training seeds', () => {
  it('merges seeds: accuracies averaged, per-split arrays seed after seed', () => {
    const merged = mergeSeedEvaluations([evaluation(0.4, [0.6, 0.62, 0.64]), evaluation(0.5, [0.7, 0.72, 0.74])]);
    expect(merged.testAccuracy).toBeCloseTo(0.45, 12);
    expect(merged.bestSingle).toEqual([0.6, 0.62, 0.64, 0.7, 0.72, 0.74]);
    expect(merged.single['NN']).toHaveLength(6);
    expect(merged.multi['Feature flip']![3]).toBeCloseTo(0.68, 12);
    const one = evaluation(0.4, [0.6]);
    expect(mergeSeedEvaluations([one])).toBe(one);
  });

  it('refuses seeds with different attacks or split counts, and no seed at all', () => {
    expect(() => mergeSeedEvaluations([])).toThrow(/at least one evaluation, got 0/);
    expect(() => mergeSeedEvaluations([evaluation(0.4, [0.6, 0.62]), evaluation(0.5, [0.7])])).toThrow(/evaluations\[1\] has attacks\/splits/);
  });

  it('an attack accuracy over seeds: each seed by the one-seed rule, combined with the spread between seeds', () => {
    const values = [0.6, 0.62, 0.64, 0.7, 0.72, 0.74];
    const est = attackAccuracyOf(column([0, 1]), values);
    // One seed: max(binomial on 1,000 per side, std over splits / √3) = max(0.01095…, 0.02/√3 = 0.01155) for seed 0.
    const one = (v: number[]) => {
      const b = v.reduce((a, x) => a + x, 0) / v.length;
      const binomial = Math.sqrt((b * (1 - b)) / 2000);
      return { value: b, se: Math.max(binomial, 0.02 / Math.sqrt(3)) };
    };
    const [s0, s1] = [one([0.6, 0.62, 0.64]), one([0.7, 0.72, 0.74])];
    const expected = combineSeeds([s0.value, s1.value], [s0.se, s1.se]);
    expect(est.value).toBeCloseTo(0.67, 12);
    expect(est.se).toBeCloseTo(expected.se, 12);
    expect(est.seSource).toBe('seeds');
    // The 10-point spread between the seeds dominates: far above either seed's own SE.
    expect(est.se!).toBeGreaterThan(0.04);
    // One seed: the same numbers are read as 6 splits of one model.
    expect(attackAccuracyOf(column([0]), values).se!).toBeLessThan(0.025);
    expect(() => attackAccuracyOf(column([0, 1, 2]), [0.6, 0.7])).toThrow(/one equal run per training seed \(3 seeds\), got 2 values/);
  });
});
