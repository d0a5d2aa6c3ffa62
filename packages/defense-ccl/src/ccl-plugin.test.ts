import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { sgd, train, type LossContext } from '@mia/core';
import { syntheticClassification, tinyMlp } from '@mia/core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { cclPlugin } from './ccl-plugin';
import { cclOptionsSchema } from './ccl-options';
import { convexConcaveLoss } from './convex-concave-loss';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('cclPlugin', () => {
  it('replaces the objective by the CCL loss of the batch logits', () => {
    const plugin = cclPlugin({ alpha: 0.3, concave: 'quadratic', scale: 0.5 });
    const logits = tf.tensor2d([
      [2, 0, -1],
      [0, 1, 0.5],
    ]);
    const labels = tf.tensor1d([0, 2], 'int32');
    const ctx = { logits, labels } as unknown as LossContext;
    const got = plugin.loss!(ctx, () => tf.scalar(123));
    const want = convexConcaveLoss(logits, labels, { alpha: 0.3, concave: 'quadratic', scale: 0.5 });
    expect(got.dataSync()[0]).toBeCloseTo(want.dataSync()[0]!, 6);
    tf.dispose([logits, labels, got, want]);
  });
  it('trains a tiny MLP with train(), deterministically and without leaks', async () => {
    const data = syntheticClassification({ size: 64, numFeatures: 6, numClasses: 3, seed: 1 });
    const run = async () => {
      const model = tinyMlp({ inputDim: 6, numClasses: 3, seed: 3 });
      const optimizer = sgd({ lr: 0.1, momentum: 0.9 });
      const result = await train(model, data, { epochs: 3, batchSize: 16, optimizer, plugins: [cclPlugin()], seed: 5, progressBar: false });
      const weights = Array.from(model.trainableVariables[0]!.dataSync());
      optimizer.dispose();
      model.dispose();
      return { losses: result.history.map((h) => h.loss), weights };
    };
    const before = tf.memory().numTensors;
    const a = await run();
    expect(tf.memory().numTensors).toBe(before);
    const b = await run();
    expect(b.weights).toEqual(a.weights);
    expect(a.losses[2]!).toBeLessThan(a.losses[0]!);
    data.dispose();
  });
  it('validates options', () => {
    expect(() => cclPlugin({ gamma: -1 })).toThrow(/cclPlugin: gamma must be a number ≥ 0, got -1/);
    // A typo is an error, not a silent default (JavaScript callers, configs).
    expect(() => cclPlugin({ alpah: 0.1 } as never)).toThrow(/cclPlugin: alpah must be one of the options alpha, concave, .*got an unknown option/);
  });
  it('exports its options schema with the defaults and a strict JSON Schema', () => {
    expect(cclOptionsSchema.parse({}, 'test')).toEqual({
      alpha: 0.5,
      concave: 'exponential',
      scale: 1,
      base: 'ce',
      gamma: 2,
      focalConcaveSign: 'paper',
      fromLogits: true,
    });
    expect(cclOptionsSchema.jsonSchema()).toMatchObject({
      additionalProperties: false,
      properties: { alpha: { minimum: 0, maximum: 1, default: 0.5 }, concave: { enum: ['exponential', 'quadratic'] } },
    });
  });
});
