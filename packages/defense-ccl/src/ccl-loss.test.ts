import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import * as tfl from '@tensorflow/tfjs-layers';
import { beforeAll, describe, expect, it } from 'vitest';
import { cclLoss } from './ccl-loss';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

function tinyModel(softmax: boolean): tfl.Sequential {
  const model = tfl.sequential();
  model.add(tfl.layers.dense({ inputShape: [4], units: 8, activation: 'tanh', kernelInitializer: tfl.initializers.glorotUniform({ seed: 1 }) }));
  model.add(tfl.layers.dense({ units: 3, activation: softmax ? 'softmax' : 'linear', kernelInitializer: tfl.initializers.glorotUniform({ seed: 2 }) }));
  return model;
}

describe('cclLoss as a model.compile loss (tfjs-layers)', () => {
  it('compiles, reports the CCL value, and lowers it by training', async () => {
    const model = tinyModel(false);
    const loss = cclLoss({ alpha: 0.5, concave: 'quadratic' });
    model.compile({ optimizer: tf.train.sgd(0.5), loss });
    const x = tf.tensor2d([
      [1, 0, 0, 1],
      [0, 1, 1, 0],
      [1, 1, 0, 0],
      [0, 0, 1, 1],
    ]);
    const y = tf.oneHot(tf.tensor1d([0, 1, 2, 0], 'int32'), 3);
    const expected = tf.tidy(() => loss(y, model.predict(x) as tf.Tensor).dataSync()[0]!);
    const reported = model.evaluate(x, y) as tf.Scalar;
    expect(reported.dataSync()[0]).toBeCloseTo(expected, 5);
    reported.dispose();
    const history = await model.fit(x, y, { epochs: 30, batchSize: 4, verbose: 0 });
    const losses = history.history.loss as number[];
    expect(losses[losses.length - 1]!).toBeLessThan(losses[0]! - 0.1);
    tf.dispose([x, y]);
    model.dispose();
  });
  it('works with a softmax head (fromLogits: false) in fit', async () => {
    const model = tinyModel(true);
    model.compile({ optimizer: tf.train.sgd(0.5), loss: cclLoss({ fromLogits: false }) });
    const x = tf.tensor2d([
      [1, 0, 0, 1],
      [0, 1, 1, 0],
      [1, 1, 0, 0],
    ]);
    const y = tf.tensor2d([
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ]);
    const history = await model.fit(x, y, { epochs: 20, batchSize: 3, verbose: 0 });
    const losses = history.history.loss as number[];
    expect(losses[losses.length - 1]!).toBeLessThan(losses[0]!);
    tf.dispose([x, y]);
    model.dispose();
  });
  // model.fit checks custom-loss targets against the output shape, so fit needs one-hot targets;
  // integer labels work when the loss is called directly (custom loops).
  it('takes integer labels [n] and [n, 1] when called directly', () => {
    const loss = cclLoss({ concave: 'quadratic' });
    const z = tf.tensor2d([
      [2, 0, -1],
      [0, 1, 0.5],
    ]);
    const a = loss(tf.tensor1d([0, 2], 'int32'), z);
    const b = loss(tf.tensor2d([[0], [2]]), z);
    const c = loss(
      tf.tensor2d([
        [1, 0, 0],
        [0, 0, 1],
      ]),
      z,
    );
    expect(a.dataSync()[0]).toBeCloseTo(c.dataSync()[0]!, 6);
    expect(b.dataSync()[0]).toBeCloseTo(c.dataSync()[0]!, 6);
    tf.dispose([a, b, c, z]);
  });
  it('validates options when created', () => {
    expect(() => cclLoss({ alpha: -0.1 })).toThrow(/cclLoss: alpha must be a number in \[0, 1\], got -0.1/);
    expect(() => cclLoss({ base: 'hinge' as never })).toThrow(/cclLoss: base must be one of "ce", "focal"/);
  });
  it('leaks no tensor per call', () => {
    const loss = cclLoss({ base: 'focal' });
    const z = tf.tensor2d([[1, 2, 3]]);
    const y = tf.tensor2d([[0, 0, 1]]);
    const before = tf.memory().numTensors;
    loss(y, z).dispose();
    expect(tf.memory().numTensors).toBe(before);
    tf.dispose([z, y]);
  });
});
