import * as tf from '@tensorflow/tfjs-core';
import { adam, train, type Classifier, type LabeledData } from '@mia/core';
import { syntheticClassification, tinyMlp } from '@mia/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { featureFlipAttack } from '../attacks/feature-flip-attack';
import { liraAttack } from '../attacks/lira-attack';
import { metricAttack } from '../attacks/metric-attack';
import { augmentationAttack, nnCrlAttack, nnMlhAttack, nnRlAttack, nnSelAttack } from '../attacks/nn-presets';
import { attackP, attackR } from '../attacks/reference-percentile-attacks';
import { rmiaAttack } from '../attacks/rmia-attack';
import { useCpu } from '../test-utils/setup';
import { auditClassifier, type TrainShadow } from './audit-classifier';
import { concatData } from './concat-data';

beforeAll(useCpu);

// A small, noisy task with few examples per class, so the MLP memorises its training set.
const task = { numFeatures: 20, numClasses: 4, noise: 2, taskSeed: 99 };
const makeData = (size: number, seed: number) => syntheticClassification({ size, seed, ...task });

const trainModel: TrainShadow = async (data: LabeledData, _role, seed) => {
  const model = tinyMlp({ inputDim: 20, hidden: [64], numClasses: 4, seed });
  const optimizer = adam({ lr: 0.01 });
  await train(model, data, { epochs: 40, batchSize: 32, optimizer, seed, progressBar: false });
  optimizer.dispose();
  return model;
};

describe('auditClassifier end to end (tiny overfit MLP)', () => {
  const sets: ReturnType<typeof makeData>[] = [];
  let target: Classifier;
  beforeAll(async () => {
    sets.push(makeData(80, 1), makeData(80, 2), makeData(80, 3), makeData(80, 4));
    target = await trainModel(sets[0]!, { kind: 'shadow', index: -1 }, 123);
  });
  afterAll(() => {
    target.dispose();
    for (const s of sets) s.dispose();
  });

  it('runs every attack, returns scores of the right length, the loss attack beats chance, no leaks', async () => {
    const [targetMembers, targetNonMembers, shadowMembers, shadowNonMembers] = sets as unknown as [LabeledData, LabeledData, LabeledData, LabeledData];
    const before = tf.memory().numTensors;
    const shift = (dx: number) => (x: tf.Tensor) => tf.add(x, dx);
    const attacks = [
      metricAttack('correctness'),
      metricAttack('loss'),
      metricAttack('confidence'),
      metricAttack('maxConfidence'),
      metricAttack('entropy'),
      metricAttack('modifiedEntropy'),
      metricAttack('gradientNorm', { mode: 'global' }),
      metricAttack('queryAccuracy', { mode: 'sel', name: 'label-only-queries' }),
      nnMlhAttack({ epochs: 5 }),
      nnRlAttack({ epochs: 5 }),
      nnCrlAttack({ epochs: 3 }),
      nnSelAttack({ epochs: 1 }),
      augmentationAttack({ epochs: 3 }),
      featureFlipAttack(),
    ];
    const referenceAttacks = [
      liraAttack(),
      liraAttack({ mode: 'offline' }),
      rmiaAttack(),
      rmiaAttack({ mode: 'online', name: 'rmia-online' }),
      attackR(),
      attackP(),
    ];
    const result = await auditClassifier(target, {
      targetMembers,
      targetNonMembers,
      shadowMembers,
      shadowNonMembers,
      trainShadow: trainModel,
      numReferences: 4,
      signals: { queries: [shift(-0.5), shift(0), shift(0.5)], inputGradients: 'l2' },
      flipNoise: { flips: [1, 3], repeats: 2 },
      attacks,
      referenceAttacks,
      seed: 5,
    });
    // The attacks own their networks until disposed; everything else is freed by auditClassifier.
    for (const attack of [...attacks, ...referenceAttacks]) attack.dispose();
    expect(tf.memory().numTensors).toBe(before);
    expect(result.attacks).toHaveLength(20);
    for (const r of result.attacks) {
      expect(r.numMembers + r.numNonMembers).toBe(160);
      expect(r.roc.fpr.length).toBeGreaterThan(1);
      expect(Number.isFinite(r.auc)).toBe(true);
      expect(r.tprAtFpr.map((t) => t.fpr)).toEqual([0.01, 0.001, 0]);
    }
    const loss = result.attacks.find((r) => r.name === 'loss')!;
    expect(loss.auc).toBeGreaterThan(0.65);
    expect(loss.decisionBased).toBe(true);
    expect(loss.thresholds!.perClass).toHaveLength(4);
    expect(result.maxAdvantage).toBe(Math.max(...result.attacks.map((r) => r.advantage)));
    expect(result.attacks.find((r) => r.name === 'label-only-queries')!.extra.selAccuracyOptimistic).toBeGreaterThan(0);
  });
});

describe('auditClassifier seeded path and errors', () => {
  const quick: TrainShadow = async (data, _role, seed) => {
    const model = tinyMlp({ inputDim: 20, hidden: [8], numClasses: 4, seed });
    const optimizer = adam({ lr: 0.05 });
    await train(model, data, { epochs: 2, batchSize: 16, optimizer, seed, progressBar: false });
    optimizer.dispose();
    return model;
  };

  it('gives identical results for the same seed (k = 2 shadows, 2 references)', async () => {
    const sets = [makeData(24, 11), makeData(24, 12), makeData(24, 13), makeData(24, 14)];
    const target = await quick(sets[0]!, { kind: 'shadow', index: 0 }, 1);
    const run = async () => {
      const result = await auditClassifier(target, {
        targetMembers: sets[0]!,
        targetNonMembers: sets[1]!,
        shadowMembers: sets[2]!,
        shadowNonMembers: sets[3]!,
        trainShadow: quick,
        numShadows: 2,
        numReferences: 2,
        seed: 9,
        attacks: [metricAttack('loss')],
        referenceAttacks: [liraAttack({ mode: 'offline' })],
      });
      return result.attacks.map((r) => [r.accuracy, r.auc, ...r.roc.tpr]);
    };
    expect(await run()).toEqual(await run());
    target.dispose();
    for (const s of sets) s.dispose();
  });

  it("shadowSource 'target' (SELENA: no shadow) fits on the target's own known data", async () => {
    const sets = [makeData(16, 31), makeData(16, 32), makeData(16, 33), makeData(16, 34)];
    // Members = tr (known, sets[0]) ∪ te (evaluated, sets[1]); ref = sets[2], test = sets[3].
    const target = await quick(concatData(sets[0]!, sets[1]!), { kind: 'shadow', index: 0 }, 2);
    const attack = metricAttack('confidence', { mode: 'sel' });
    const result = await auditClassifier(target, {
      targetMembers: sets[1]!,
      targetNonMembers: sets[3]!,
      shadowMembers: sets[0]!,
      shadowNonMembers: sets[2]!,
      shadowSource: 'target',
      attacks: [attack],
    });
    expect(result.attacks[0]!.extra.selAccuracyOptimistic).toBeGreaterThanOrEqual(0);
    expect(result.attacks[0]!.numMembers).toBe(16);
    target.dispose();
    for (const s of sets) s.dispose();
  });

  it('rejects missing shadow data, missing trainers and odd reference counts', async () => {
    const data = makeData(8, 21);
    const target = tinyMlp({ inputDim: 20, hidden: [4], numClasses: 4 });
    const base = { targetMembers: data, targetNonMembers: data };
    await expect(auditClassifier(target, { ...base, attacks: [metricAttack('loss')] })).rejects.toThrow(/need shadowMembers and shadowNonMembers/);
    await expect(auditClassifier(target, { ...base, shadowMembers: data, shadowNonMembers: data, attacks: [metricAttack('loss')] })).rejects.toThrow(
      /need trainShadow/,
    );
    await expect(auditClassifier(target, { ...base, numReferences: 3, referenceAttacks: [liraAttack()] })).rejects.toThrow(/must be even/);
    await expect(auditClassifier(target, { ...base, referenceAttacks: [liraAttack()] })).rejects.toThrow(/need trainShadow and numReferences/);
    target.dispose();
    data.dispose();
  });
});
