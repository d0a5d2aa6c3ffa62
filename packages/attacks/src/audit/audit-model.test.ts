import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, labeledData } from '@mia/core';
import { tinyMlp } from '@mia/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leakMatchers } from '../matchers';
import { useCpu } from '../test-utils/setup';
import { randomTask, trainTinyMlp, type TinyMlp } from '../test-utils/tiny-mlp';
import { auditModel } from './audit-model';
import { checkLeakage } from './check-leakage';

beforeAll(useCpu);
expect.extend(leakMatchers);
declare module 'vitest' {
  interface Assertion<T> {
    toLeakAtMost(ceilings: import('./check-leakage').LeakCeilings): T;
  }
}

// 200 members with random labels (10 classes, 20 features): the MLP memorises them, so their loss
// is near 0 while the 200 non-members' loss is large — the textbook leaking model.
const NUM_CLASSES = 10;
const train = randomTask(200, 20, NUM_CLASSES, 11);
const held = randomTask(200, 20, NUM_CLASSES, 12);
let overfit: TinyMlp;
beforeAll(() => {
  overfit = trainTinyMlp(train.x, train.y, NUM_CLASSES, { steps: 300, seed: 3 });
});
afterAll(() => {
  overfit.dispose();
  for (const t of [train.x, held.x]) t.dispose();
});

describe('auditModel', () => {
  it('finds the memorised training set of an overfit MLP: large advantage, AUC near 1, ε bound > 1, gate and matcher fail', async () => {
    const report = await auditModel(overfit.predict, { members: train, nonMembers: held }, { resamples: 200 });
    const loss = report.attacks.find((a) => a.name === 'loss')!;
    expect(report.attacks.map((a) => a.name)).toEqual(['loss', 'modifiedEntropy', 'entropy', 'maxConfidence', 'correctness']);
    expect(loss.auc.estimate).toBeGreaterThan(0.95);
    expect(loss.advantage.estimate).toBeGreaterThan(0.7);
    expect(loss.advantage.lower).toBeLessThanOrEqual(loss.advantage.estimate);
    expect(loss.advantage.upper).toBeGreaterThanOrEqual(loss.advantage.estimate);
    expect(loss.tprAtFpr.map((t) => t.fpr)).toEqual([0.01, 0.001]);
    expect(loss.epsilon.epsilon).toBeGreaterThan(1);
    expect(report.numMembers).toBe(200);
    expect(report.numClasses).toBe(NUM_CLASSES);
    expect(loss.perClass.reduce((s, k) => s + k.numMembers, 0)).toBe(200);
    // Every member is ranked; the top records are the highest-scoring members.
    expect(report.exposure.records).toHaveLength(200);
    expect(report.exposure.top).toHaveLength(10);
    expect(report.exposure.top[0]!.rank).toBe(1);
    const verdict = checkLeakage(report, { advantage: 0.1 });
    expect(verdict.pass).toBe(false);
    expect(verdict.message).toMatch(/^leaks more than allowed at 95 % confidence: advantage upper bound .* > ceiling 10 %/);
    expect(() => expect(report).toLeakAtMost({ advantage: 0.1 })).toThrow(/expected the model to leak at most the ceilings, but it leaks more than allowed/);
    expect(report).not.toLeakAtMost({ advantage: 0.1 });
  });

  it('passes the gate and the matcher on a model that never saw the data', async () => {
    const a = randomTask(1500, 20, NUM_CLASSES, 21);
    const b = randomTask(1500, 20, NUM_CLASSES, 22);
    const untrained = trainTinyMlp(a.x, a.y, NUM_CLASSES, { steps: 0, seed: 4 });
    try {
      const report = await auditModel(untrained.predict, { members: a, nonMembers: b }, { resamples: 200 });
      for (const attack of report.attacks) expect(attack.advantage.upper).toBeLessThan(0.1);
      expect(report).toLeakAtMost({ advantage: 0.1, tprAtFpr: [0.01, 0.05] });
      expect(checkLeakage(report, { advantage: 0.1 }).message).toMatch(/^leaks at most the ceilings at 95 % confidence: advantage upper bound/);
    } finally {
      untrained.dispose();
      for (const t of [a.x, b.x]) t.dispose();
    }
  });

  it('accepts a LayersModel-like object (predict), a Classifier, LabeledData and probabilities, with the same numbers as the predict function', async () => {
    const options = { resamples: 50, statistics: ['loss' as const] };
    const fromFunction = await auditModel(overfit.predict, { members: train, nonMembers: held }, options);
    const layersLike = { predict: (x: tf.Tensor) => overfit.predict(x) };
    const data = { members: labeledData({ x: train.x, y: train.y, numClasses: NUM_CLASSES }), nonMembers: { x: held.x, y: tf.tensor1d(held.y, 'int32') } };
    const fromLayers = await auditModel(layersLike, data, options);
    data.nonMembers.y.dispose();
    expect(fromLayers.attacks[0]!.auc.estimate).toBe(fromFunction.attacks[0]!.auc.estimate);
    const softmax = await auditModel((x) => tf.softmax(overfit.predict(x)), { members: train, nonMembers: held }, options);
    expect(softmax.attacks[0]!.auc.estimate).toBeCloseTo(fromFunction.attacks[0]!.auc.estimate, 6);
    const classifier = tinyMlp({ inputDim: 20, hidden: [8], numClasses: NUM_CLASSES, seed: 5 });
    try {
      const report = await auditModel(classifier, { members: train, nonMembers: held }, options);
      expect(report.attacks[0]!.auc.estimate).toBeGreaterThan(0.3);
      expect(report.attacks[0]!.auc.estimate).toBeLessThan(0.7); // untrained: no leak
    } finally {
      classifier.dispose();
    }
  });

  it('leaves no tensor behind', async () => {
    await auditModel(overfit.predict, { members: train, nonMembers: held }, { resamples: 10 }); // warm-up (backend state)
    const before = tf.memory().numTensors;
    await auditModel({ predict: (x: tf.Tensor) => overfit.predict(x) }, { members: train, nonMembers: held }, { resamples: 10, batchSize: 64 });
    expect(tf.memory().numTensors).toBe(before);
  });

  it('is deterministic for a seed: the same report twice, other bootstrap intervals with another seed', async () => {
    const run = (seed: number) => auditModel(overfit.predict, { members: train, nonMembers: held }, { resamples: 50, seed, statistics: ['entropy'] });
    const [a, b, c] = [await run(1), await run(1), await run(2)];
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(c.attacks[0]!.auc.estimate).toBe(a.attacks[0]!.auc.estimate);
    expect([c.attacks[0]!.auc.lower, c.attacks[0]!.auc.upper]).not.toEqual([a.attacks[0]!.auc.lower, a.attacks[0]!.auc.upper]);
  });

  it('rejects bad input with the argument, expected and actual value', async () => {
    const data = { members: train, nonMembers: held };
    await expect(auditModel(42 as never, data)).rejects.toThrow(
      /auditModel: model must be a tf.LayersModel, a tf.GraphModel, a Classifier or a predict function, got 42/,
    );
    await expect(auditModel(overfit.predict, { ...data, members: { x: train.x, y: [1, 2] } })).rejects.toThrow(
      /data.members.y must have one label per example \(200\), got 2/,
    );
    await expect(auditModel(overfit.predict, { ...data, population: held })).rejects.toThrow(/population .* needs data.references/);
    await expect(auditModel((x) => tf.sum(x, 1), data)).rejects.toThrow(/must output \[batch, numClasses ≥ 2\].*got shape \[200\]/);
    await expect(auditModel(overfit.predict, data, { output: 'odds' as never })).rejects.toThrow(InvalidArgumentError);
    await expect(auditModel(overfit.predict, data, { batchSize: 0 })).rejects.toThrow(/batchSize must be a positive integer, got 0/);
  });
});
