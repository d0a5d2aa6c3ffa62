import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { predictLogits, sgd, subsetData } from '@mia/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { splitAiAssignment, splitAiPredict, trainSplitAi } from './split-ai';
import { trainSelena } from './train-selena';
import { tinyModel, tinySplits } from './test-utils/fixtures';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const training = { epochs: 3, batchSize: 16, progressBar: false, seed: 2 } as const;
const createOptimizer = () => sgd({ lr: 0.1, momentum: 0.9 });

describe('splitAiAssignment', () => {
  it('gives each member L distinct sub-models, seeded', () => {
    const a = splitAiAssignment(50, 6, 3, 1000);
    for (let i = 0; i < 50; i++) {
      const row = Array.from(a.subarray(i * 3, i * 3 + 3));
      expect(new Set(row).size).toBe(3);
      expect(row.every((k) => k >= 0 && k < 6)).toBe(true);
    }
    expect(splitAiAssignment(50, 6, 3, 1000)).toEqual(a);
    expect(splitAiAssignment(50, 6, 3, 1001)).not.toEqual(a);
    expect(() => splitAiAssignment(5, 4, 4)).toThrow(/splitAiAssignment: numExcluded must be less than numModels \(4\), got 4/);
  });
});

describe('Split-AI', () => {
  it('answers a member only with sub-models that never trained on it', async () => {
    const { members, dispose } = tinySplits({ members: 30, other: 8 });
    let seed = 0;
    const splitAi = await trainSplitAi(() => tinyModel(seed++), members, { numModels: 4, numExcluded: 2, training, createOptimizer, seed: 5 });
    for (let i = 0; i < members.size; i++) {
      for (const k of splitAi.assignment.subarray(i * 2, i * 2 + 2)) expect(splitAi.trainingIndices[k]!.includes(i)).toBe(false);
    }
    const memberIndex = Int32Array.from({ length: members.size }, (_, i) => i);
    const before = tf.memory().numTensors;
    const probs = splitAiPredict(splitAi, members, { memberIndex });
    // Member 0's answer = mean softmax of its two assigned models, computed by hand.
    const [k0, k1] = splitAi.assignment.subarray(0, 2);
    const one = subsetData(members, [0]);
    const manual = tf.tidy(
      () =>
        tf.div(tf.add(tf.softmax(predictLogits(splitAi.models[k0!]!, one)), tf.softmax(predictLogits(splitAi.models[k1!]!, one))), 2).arraySync() as number[][],
    );
    expect((tf.tidy(() => tf.slice(probs, [0, 0], [1, 3]).arraySync()) as number[][])[0]!.map((p) => p.toFixed(5))).toEqual(
      manual[0]!.map((p) => p.toFixed(5)),
    );
    // Scrambling every model that trained on member 0 leaves its answer unchanged.
    const seen = splitAi.models.filter((_, k) => k !== k0 && k !== k1);
    for (const model of seen) for (const v of model.trainableVariables) tf.tidy(() => v.assign(tf.randomNormal(v.shape)));
    const again = splitAiPredict(splitAi, members, { memberIndex });
    expect(tf.tidy(() => tf.slice(again, [0, 0], [1, 3]).arraySync())).toEqual(tf.tidy(() => tf.slice(probs, [0, 0], [1, 3]).arraySync()));
    probs.dispose();
    again.dispose();
    expect(tf.memory().numTensors).toBe(before);
    // Non-members are answered by a random member's subset: seeded, rows sum to 1.
    const a = splitAiPredict(splitAi, members, { seed: 3 });
    const b = splitAiPredict(splitAi, members, { seed: 3 });
    expect(a.arraySync()).toEqual(b.arraySync());
    (tf.tidy(() => tf.sum(a, 1).arraySync()) as number[]).forEach((s) => expect(s).toBeCloseTo(1, 5));
    a.dispose();
    b.dispose();
    expect(() => splitAiPredict(splitAi, members, { memberIndex: [99] })).toThrow(/memberIndex must be one entry per example/);
    splitAi.dispose();
    dispose();
  });
});

describe('trainSelena', () => {
  it('distils the Split-AI outputs into one model without leaks', async () => {
    const { members, other, dispose } = tinySplits({ members: 30, other: 30 });
    let seed = 0;
    const optimizer = createOptimizer();
    const before = tf.memory().numTensors;
    const { model, splitAi } = await trainSelena(() => tinyModel(seed++), members, {
      numModels: 4,
      numExcluded: 2,
      splitAiTraining: training,
      createOptimizer,
      distillationTraining: { ...training, optimizer, epochs: 6 },
      keepSplitAi: true,
    });
    // The distilled model follows the Split-AI soft labels on the members more closely than a fresh model.
    const targets = splitAiPredict(splitAi!, members, { memberIndex: Int32Array.from({ length: 30 }, (_, i) => i) });
    const gap = (m: ReturnType<typeof tinyModel>) =>
      tf.tidy(() => tf.mean(tf.abs(tf.sub(tf.softmax(predictLogits(m, members)), targets))).arraySync() as number);
    const fresh = tinyModel(77);
    expect(gap(model)).toBeLessThan(gap(fresh));
    fresh.dispose();
    targets.dispose();
    model.dispose();
    splitAi!.dispose();
    optimizer.dispose();
    expect(tf.memory().numTensors).toBe(before);
    dispose();
    void other;
  });
});
