import * as tf from '@tensorflow/tfjs-core';
import { useWasmTraining } from '@mia/backend-wasm';
import { syntheticClassification, tinyMlp } from '@mia/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SINGLE_QUERY_ATTACKS, evaluateModel } from './evaluate-model';
import type { EvaluationOptions } from './evaluation-options';

const options: EvaluationOptions = { splits: 2, nnEpochs: 1, augmentationNnEpochs: 1, cropPadding: 0, multiQueryExamples: 12, flips: [1, 3], flipRepeats: 2 };
let data: ReturnType<typeof syntheticClassification>;
let model: ReturnType<typeof tinyMlp>;
const members = Array.from({ length: 30 }, (_, i) => i);
const nonMembers = Array.from({ length: 30 }, (_, i) => 30 + i);

beforeAll(async () => {
  await useWasmTraining();
  data = syntheticClassification({ size: 60, numFeatures: 8, numClasses: 3, seed: 4 });
  model = tinyMlp({ inputDim: 8, numClasses: 3, hidden: [6], seed: 2 });
});
afterAll(() => {
  model.dispose();
  data.dispose();
});

describe('evaluateModel', () => {
  it('measures every attack on every split, the best per split, and leaks no tensor', async () => {
    const before = tf.memory().numTensors;
    const e = await evaluateModel(model, data, members, nonMembers, options);
    expect(tf.memory().numTensors).toBe(before);
    expect(Object.keys(e.single)).toEqual([...SINGLE_QUERY_ATTACKS]);
    expect(Object.keys(e.multi)).toEqual(['Feature flip']);
    for (const v of [...Object.values(e.single), ...Object.values(e.multi)]) {
      expect(v).toHaveLength(2);
      for (const a of v) expect(a >= 0 && a <= 1).toBe(true);
    }
    for (let s = 0; s < 2; s++) {
      expect(e.bestSingle[s]).toBe(Math.max(...Object.values(e.single).map((v) => v[s]!)));
      expect(e.bestMulti[s]).toBe(e.multi['Feature flip']![s]);
    }
    // Correctness attack = ½(train acc + 1 − test acc) on each evaluation half, so it averages near that.
    const p = tf.tidy(() => tf.argMax(model.forward(data.gather([...members, ...nonMembers]), { training: false }).logits, 1).dataSync());
    const acc = (idx: number[], off: number) => idx.filter((i, k) => p[k + off] === data.y[i]).length / idx.length;
    expect(e.trainAccuracy).toBeCloseTo(acc(members, 0), 12);
    expect(e.testAccuracy).toBeCloseTo(acc(nonMembers, 30), 12);
  });

  it('is deterministic for a seed', async () => {
    const a = await evaluateModel(model, data, members, nonMembers, options, 7);
    const b = await evaluateModel(model, data, members, nonMembers, options, 7);
    expect(b).toEqual(a);
  });

  it('attacks released logits when given (MemGuard): single-query attacks see them, multi-query attacks the model', async () => {
    const logitsOf = (idx: number[]) => tf.tidy(() => model.forward(data.gather(idx), { training: false }).logits.dataSync() as Float32Array);
    const own = { members: logitsOf(members), nonMembers: logitsOf(nonMembers) };
    const base = await evaluateModel(model, data, members, nonMembers, options, 7);
    const same = await evaluateModel(model, data, members, nonMembers, options, 7, own);
    expect(same.single.Correctness).toEqual(base.single.Correctness);
    expect(same.trainAccuracy).toBe(base.trainAccuracy);
    // Released logits that put every example's mass on class 0: accuracies follow them, multi-query stays the model's.
    const onClass0 = (n: number) => Float32Array.from({ length: n * 3 }, (_, i) => (i % 3 === 0 ? 10 : 0));
    const fake = await evaluateModel(model, data, members, nonMembers, options, 7, { members: onClass0(30), nonMembers: onClass0(30) });
    expect(fake.trainAccuracy).toBeCloseTo(members.filter((i) => data.y[i] === 0).length / 30, 12);
    expect(fake.testAccuracy).toBeCloseTo(nonMembers.filter((i) => data.y[i] === 0).length / 30, 12);
    expect(fake.multi).toEqual(base.multi);
  });
});
