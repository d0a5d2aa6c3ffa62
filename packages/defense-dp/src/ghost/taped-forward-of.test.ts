import * as tf from '@tensorflow/tfjs';
import { seededRandom } from '@mia/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { dpSgdGradients } from '../dp-sgd/dp-sgd-gradients';
import { maxRelativeDifference } from '../test-utils/naive-dp';
import { dpSgdTapedGradients } from './dp-sgd-taped-gradients';
import { tapedForwardOf } from './taped-forward-of';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

/** The taped gradient of a tf.Sequential and the per-example loop's, without noise. */
function bothPaths(model: tf.Sequential, x: tf.Tensor, y: tf.Tensor1D, clipNorm: number) {
  const variables = model.trainableWeights.map((w) => w.read() as tf.Variable);
  const options = { variables, clipNorm, noiseMultiplier: 0, expectedBatchSize: 6, random: seededRandom(1) };
  const numClasses = (model.outputs[0]!.shape as number[])[1]!;
  const loss = (xb: tf.Tensor, yb: tf.Tensor) =>
    tf.losses.softmaxCrossEntropy(tf.oneHot(yb as tf.Tensor1D, numClasses), model.apply(xb) as tf.Tensor) as tf.Scalar;
  const loop = dpSgdGradients(loss, { x, y }, options);
  const taped = dpSgdTapedGradients(tapedForwardOf(model), { x, y }, options);
  return { variables, loop, taped };
}

describe('tapedForwardOf', () => {
  it('a Dense/Dropout Sequential gives the per-example loop’s gradient', () => {
    const model = tf.sequential({
      layers: [tf.layers.dense({ inputShape: [5], units: 7, activation: 'tanh' }), tf.layers.dropout({ rate: 0.5 }), tf.layers.dense({ units: 3 })],
    });
    const x = tf.randomNormal([6, 5], 0, 1, 'float32', 1);
    const y = tf.tensor1d([0, 1, 2, 0, 1, 2], 'int32');
    const { variables, loop, taped } = bothPaths(model, x, y, 0.5);
    for (const v of variables)
      expect(maxRelativeDifference(taped.grads[v.name]!.dataSync() as Float32Array, loop.grads[v.name]!.dataSync() as Float32Array)).toBeLessThan(1e-4);
    tf.dispose([x, y, ...Object.values(loop.grads), ...Object.values(taped.grads), loop.loss, taped.loss]);
    model.dispose();
  });

  it('a Conv2D/pooling/Flatten/Dense Sequential (nested) gives the per-example loop’s gradient', () => {
    const features = tf.sequential({
      layers: [
        tf.layers.conv2d({ inputShape: [8, 8, 2], filters: 4, kernelSize: 3, padding: 'same', activation: 'relu' }),
        tf.layers.maxPooling2d({ poolSize: 2 }),
        tf.layers.conv2d({ filters: 5, kernelSize: 3, strides: 2, padding: 'valid', useBias: false }),
      ],
    });
    const model = tf.sequential({ layers: [features, tf.layers.flatten(), tf.layers.dense({ units: 3 })] });
    const x = tf.randomNormal([6, 8, 8, 2], 0, 1, 'float32', 2);
    const y = tf.tensor1d([2, 1, 0, 0, 1, 2], 'int32');
    const { variables, loop, taped } = bothPaths(model, x, y, 0.7);
    expect(variables.length).toBe(5); // conv kernel + bias, conv kernel, dense kernel + bias
    for (const v of variables)
      expect(maxRelativeDifference(taped.grads[v.name]!.dataSync() as Float32Array, loop.grads[v.name]!.dataSync() as Float32Array)).toBeLessThan(1e-4);
    tf.dispose([x, y, ...Object.values(loop.grads), ...Object.values(taped.grads), loop.loss, taped.loss]);
    model.dispose();
  });

  it('refuses layers with weights it cannot tape, and models that are not a Sequential', () => {
    const bn = tf.sequential({
      layers: [tf.layers.dense({ inputShape: [4], units: 4 }), tf.layers.batchNormalization({ name: 'bn_here' }), tf.layers.dense({ units: 2 })],
    });
    expect(() => tapedForwardOf(bn)).toThrow(
      'tapedForwardOf: every layer with trainable weights must be Dense or Conv2D on the taped path, got BatchNormalization layer bn_here',
    );
    const input = tf.input({ shape: [4] });
    const functional = tf.model({ inputs: input, outputs: tf.layers.dense({ units: 2 }).apply(input) as tf.SymbolicTensor });
    expect(() => tapedForwardOf(functional as unknown as tf.Sequential)).toThrow(
      'tapedForwardOf: model must be a tf.Sequential (a chain of layers), got Model',
    );
    bn.dispose();
    functional.dispose();
  });
});
