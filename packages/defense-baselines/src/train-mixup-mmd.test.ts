import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { cosine, evaluate, sgd } from '@mia/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { trainMixupMmd } from './train-mixup-mmd';
import { tinyModel, tinySplits, weightsOf } from './test-utils/fixtures';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('trainMixupMmd', () => {
  it('runs both passes, skips the MMD pass in the last epoch, leaks nothing and is deterministic', async () => {
    const { members, other, dispose } = tinySplits();
    const run = async (seed: number) => {
      const model = tinyModel(4);
      const before = tf.memory().numTensors;
      const history = await trainMixupMmd(model, members, other, { epochs: 3, batchSize: 16, gapThreshold: 0, seed });
      expect(tf.memory().numTensors).toBe(before);
      const weights = weightsOf(model);
      const accuracy = evaluate(model, members).accuracy;
      model.dispose();
      return { history, weights, accuracy };
    };
    const a = await run(7);
    expect(a.history.map((h) => h.mmdPass)).toEqual([true, true, false]);
    expect(a.accuracy).toBeGreaterThan(0.5); // learns (chance is 1/3)
    expect((await run(7)).weights).toEqual(a.weights);
    expect((await run(8)).weights).not.toEqual(a.weights);
    dispose();
  });

  it('λ_mmd reaches the model: λ = 0 is mixup only, distinct λ give distinct models', async () => {
    const { members, other, dispose } = tinySplits();
    const run = async (lambdaMmd: number, gapThreshold = 0) => {
      const model = tinyModel(4);
      const history = await trainMixupMmd(model, members, other, { epochs: 3, batchSize: 16, gapThreshold, lambdaMmd, seed: 7 });
      const weights = weightsOf(model);
      model.dispose();
      return { history, weights };
    };
    const zero = await run(0);
    expect(zero.history.every((h) => !h.mmdPass)).toBe(true);
    // With the MMD pass switched off by the gap rule, any λ is the mixup-only model.
    expect((await run(5, 1)).weights).toEqual(zero.weights);
    const one = await run(1);
    const five = await run(5);
    expect(one.weights).not.toEqual(zero.weights);
    expect(five.weights).not.toEqual(one.weights);
    dispose();
  });

  it('skips the MMD pass below the accuracy gap but still steps the LR schedule (A35)', async () => {
    const { members, other, dispose } = tinySplits();
    const model = tinyModel(4);
    const optimizer = sgd({ lr: 0.05, momentum: 0.9 });
    const history = await trainMixupMmd(model, members, other, { epochs: 3, batchSize: 16, gapThreshold: 1, optimizer, schedule: cosine(3) });
    expect(history.map((h) => h.mmdPass)).toEqual([false, false, false]);
    // cosine(3): lr_e = 0.05·(1 + cos(π·e/3))/2 = 0.05, 0.0375, 0.0125
    history.forEach((h, e) => expect(h.learningRate).toBeCloseTo([0.05, 0.0375, 0.0125][e]!, 10));
    optimizer.dispose();
    model.dispose();
    dispose();
  });

  it('validates its options', async () => {
    const { members, other, dispose } = tinySplits();
    const model = tinyModel();
    await expect(trainMixupMmd(model, members, other, { epochs: 0 })).rejects.toThrow(/trainMixupMmd: epochs must be an integer ≥ 1, got 0/);
    await expect(trainMixupMmd(model, members, other, { epochs: 1, lambdaMmd: -1 })).rejects.toThrow(/lambdaMmd/);
    model.dispose();
    dispose();
  });
});
