import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { crossEntropy, deriveSeed, seededRandom, sgd, train, type Classifier, type LabeledData } from '@mia/core';
import { syntheticClassification, tinyMlp } from '@mia/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lossGapPlugin } from './loss-gap-plugin';
import { lossGapTune } from './loss-gap-tune';
import { weightsOf } from './test-utils/linear-two-layer';

beforeAll(async () => {
  await tf.setBackend('cpu');
});
const members = syntheticClassification({ size: 16, numFeatures: 4, numClasses: 3, noise: 1, seed: 21 });
const nonMembers = syntheticClassification({ size: 12, numFeatures: 4, numClasses: 3, noise: 1, seed: 22 });
afterAll(() => {
  members.dispose();
  nonMembers.dispose();
});
const mlp = () => tinyMlp({ inputDim: 4, hidden: [6], numClasses: 3, seed: 8 });
const meanLoss = (model: Classifier, data: LabeledData, idx: Int32Array) =>
  crossEntropy(
    model.forward(data.gather(idx), { training: true }).logits,
    tf.tensor1d(
      Int32Array.from(idx, (i) => data.y[i]!),
      'int32',
    ),
  );

describe('lossGapPlugin', () => {
  it('steps along tf.grad of L_m + λ·|L_m − L_n| (explicit reference over two mini-batches)', async () => {
    const lambda = 2;
    const model = mlp();
    const optimizer = sgd({ lr: 0.1 });
    await train(model, members, {
      epochs: 1,
      batchSize: 8,
      seed: 5,
      optimizer,
      plugins: [lossGapPlugin({ nonMembers, lambda, batchSize: 8, seed: 5 })],
      progressBar: false,
    });
    optimizer.dispose();

    const reference = mlp();
    const order = seededRandom(deriveSeed(5, 'shuffle', 0)).permutation(16);
    const pass = seededRandom(deriveSeed(5, 'nonMembers', 0)).permutation(12); // batches of 8 and 4
    for (const step of [0, 1]) {
      tf.tidy(() => {
        const { grads } = tf.variableGrads(() => {
          const lm = meanLoss(reference, members, order.slice(step * 8, step * 8 + 8));
          const ln = meanLoss(reference, nonMembers, pass.slice(step * 8, step * 8 + 8));
          return tf.add(lm, tf.mul(tf.abs(tf.sub(lm, ln)), lambda)) as tf.Scalar;
        }, reference.trainableVariables as tf.Variable[]);
        for (const v of reference.trainableVariables) v.assign(tf.sub(v, tf.mul(grads[v.name]!, 0.1)));
      });
    }
    const got = weightsOf(model);
    const want = weightsOf(reference);
    for (const [k, w] of want.entries()) for (let i = 0; i < w.length; i++) expect(got[k]![i]).toBeCloseTo(w[i]!, 5);
    // λ matters: plain CE gives different weights.
    const plain = mlp();
    const opt2 = sgd({ lr: 0.1 });
    await train(plain, members, { epochs: 1, batchSize: 8, seed: 5, optimizer: opt2, progressBar: false });
    opt2.dispose();
    expect(weightsOf(plain)).not.toEqual(got);
    for (const m of [model, reference, plain]) m.dispose();
  });

  it('lossGapTune is seeded, leaks nothing, and validates λ', async () => {
    const run = async (seed: number) => {
      const model = mlp();
      const before = tf.memory().numTensors;
      await lossGapTune(model, { members, nonMembers, lambda: 1, epochs: 2, batchSize: 4, seed, progressBar: false });
      expect(tf.memory().numTensors).toBe(before);
      const w = weightsOf(model);
      model.dispose();
      return w;
    };
    const a = await run(3);
    expect(await run(3)).toEqual(a);
    expect(await run(4)).not.toEqual(a);
    expect(() => lossGapPlugin({ nonMembers, lambda: -1 })).toThrow('lossGapPlugin: lambda must be a number in [0, Infinity], got -1');
  });
});
