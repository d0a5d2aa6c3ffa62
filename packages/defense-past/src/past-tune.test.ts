import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { cosine, evaluate, sgd, subsetData, train, type Classifier } from '@mia/core';
import { syntheticClassification, tinyMlp } from '@mia/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { giniRecorder } from './gini-recorder';
import { lossGapRecorder } from './loss-gap-recorder';
import { pastTune } from './past-tune';
import { weightsOf } from './test-utils/linear-two-layer';
import { lossAdvantage } from './test-utils/loss-advantage';

describe('lossAdvantage (test helper)', () => {
  it('gives the hand-computed advantage', () => {
    // Members {0.1, 0.5}, non-members {0.3, 0.9}: threshold 0.1 → TPR ½, FPR 0; 0.3 → ½, ½; 0.5 → 1, ½; 0.9 → 1, 1. Max = ½.
    expect(lossAdvantage(Float32Array.of(0.1, 0.5), Float32Array.of(0.3, 0.9))).toBe(0.5);
    expect(lossAdvantage(Float32Array.of(1, 1), Float32Array.of(1, 1))).toBe(0);
  });
});

describe('pastTune on an overfit tabular MLP', () => {
  // 10-class noisy Gaussian-prototype task, 20 features; members / inference (S_n for PAST) / test
  // are disjoint (PAST6-like). Phase 1: 30 epochs of SGD to 100 % train accuracy.
  const all = syntheticClassification({ size: 900, numFeatures: 20, numClasses: 10, noise: 2.5, seed: 1 });
  const range = (a: number) => Array.from({ length: 300 }, (_, i) => a + i);
  const [members, inference, test] = [subsetData(all, range(0)), subsetData(all, range(300)), subsetData(all, range(600))];
  let base: Float32Array[];
  const measure = (model: Classifier) => {
    const m = evaluate(model, members);
    const n = evaluate(model, test);
    return { testAccuracy: n.accuracy, lossGap: n.loss - m.loss, advantage: lossAdvantage(m.losses, n.losses) };
  };
  const fresh = () => {
    const model = tinyMlp({ inputDim: 20, hidden: [128, 64], numClasses: 10, seed: 2 });
    model.trainableVariables.forEach((v, k) => v.assign(tf.tensor(base[k]!, v.shape)));
    return model;
  };

  beforeAll(async () => {
    await tf.setBackend('cpu');
    const model = tinyMlp({ inputDim: 20, hidden: [128, 64], numClasses: 10, seed: 2 });
    const optimizer = sgd({ lr: 0.05, momentum: 0.9, weightDecay: 5e-4 });
    await train(model, members, { epochs: 30, batchSize: 32, optimizer, schedule: cosine(30), seed: 3, progressBar: false });
    optimizer.dispose(); // sgd names its buffers after the variables: dispose before a new optimizer.
    base = weightsOf(model);
    model.dispose();
  });
  afterAll(() => all.dispose());

  it('reduces the loss gap and the loss-attack advantage at almost unchanged test accuracy, better than plain L1', async () => {
    const model = fresh();
    const before = measure(model);
    // Measured on the cpu backend: base test acc 0.473, gap 2.10, advantage 0.763.
    expect(before.advantage).toBeGreaterThan(0.6);
    expect(before.lossGap).toBeGreaterThan(1.5);
    const gaps = lossGapRecorder({ members, nonMembers: test });
    const ginis = giniRecorder();
    await pastTune(model, {
      members,
      nonMembers: inference,
      lambda: 0.01,
      alpha: 2.5,
      epochs: 10,
      batchSize: 32,
      seed: 4,
      progressBar: false,
      plugins: [gaps, ginis],
    });
    const after = measure(model);
    // Measured: test acc 0.473, gap 0.41, advantage 0.270.
    expect(after.lossGap).toBeLessThan(before.lossGap * 0.5);
    expect(after.advantage).toBeLessThan(before.advantage - 0.2);
    expect(Math.abs(after.testAccuracy - before.testAccuracy)).toBeLessThan(0.05);
    // Fig. 2c / 2b: the recorded gap falls over tuning; PAST's shifted Gini falls (measured 0.091 → 0.056) and
    // the standard |w| Gini rises: the weights become sparser.
    expect(gaps.records.map((r) => r.epochsDone)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(gaps.records[10]!.lossGap).toBeLessThan(gaps.records[0]!.lossGap * 0.5);
    expect(ginis.records[10]!.giniShifted).toBeLessThan(ginis.records[0]!.giniShifted);
    expect(ginis.records[10]!.giniAbs).toBeGreaterThan(ginis.records[0]!.giniAbs); // measured 0.453 → 0.771

    // Fig. 5a: plain L1 tuning strong enough to reach a similar advantage costs far more accuracy.
    const l1 = fresh();
    await pastTune(l1, { members, lambda: 0.03, alpha: 0, adaptive: false, epochs: 10, batchSize: 32, seed: 4, progressBar: false });
    const afterL1 = measure(l1);
    // Measured: L1 test acc 0.373, advantage 0.273.
    expect(afterL1.advantage).toBeGreaterThan(after.advantage - 0.05);
    expect(afterL1.testAccuracy).toBeLessThan(after.testAccuracy - 0.05);
    model.dispose();
    l1.dispose();
  });
});
