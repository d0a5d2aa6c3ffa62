import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { crossEntropyPerExample, seededRandom } from '@mia/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dpSgdGradients } from '../dp-sgd/dp-sgd-gradients';
import { maxRelativeDifference, naiveClippedMean } from '../test-utils/naive-dp';
import { dpSgdTapedGradients } from './dp-sgd-taped-gradients';
import type { PerExampleTape } from './per-example-tape';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const normal = (shape: number[], std: number, seed: number, name: string) => {
  const init = tf.randomNormal(shape, 0, std, 'float32', seed);
  const v = tf.variable(init, true, name);
  init.dispose();
  return v;
};

// An MLP 6 → 5 → 3 and a small CNN on 6×6×2 images: conv 3×3 'same' (T = 36 > K·cout/T: the
// per-example gradient is formed), conv 3×3 stride 2 'valid' (T = 4: the ghost ⟨AAᵀ, GGᵀ⟩ is used),
// a bias-free dense head.
const mlp = [normal([6, 5], 0.8, 1, 'tg/w1'), normal([5], 0.1, 2, 'tg/b1'), normal([5, 3], 0.8, 3, 'tg/w2'), normal([3], 0.1, 4, 'tg/b2')];
const cnn = [
  normal([3, 3, 2, 4], 0.5, 5, 'tg/c1'),
  normal([4], 0.1, 6, 'tg/cb1'),
  normal([3, 3, 4, 6], 0.4, 7, 'tg/c2'),
  normal([6], 0.1, 8, 'tg/cb2'),
  normal([24, 3], 0.4, 9, 'tg/fc'),
];
const mlpForward = (x: tf.Tensor, tape: PerExampleTape) => tape.dense(tf.tanh(tape.dense(x as tf.Tensor2D, mlp[0]!, mlp[1])), mlp[2]!, mlp[3]);
const cnnForward = (x: tf.Tensor, tape: PerExampleTape) => {
  const h1 = tf.relu(tape.conv2d(x as tf.Tensor4D, cnn[0]!, cnn[1], { pad: 'same' }));
  const h2 = tf.tanh(tape.conv2d(h1, cnn[2]!, cnn[3], { strides: 2, pad: 'valid' }));
  return tape.dense(tf.reshape(h2, [h2.shape[0], 24]) as tf.Tensor2D, cnn[4]!);
};
const plain: PerExampleTape = {
  dense: (x, w, b) => (b === undefined ? tf.matMul(x, w as tf.Tensor2D) : tf.add(tf.matMul(x, w as tf.Tensor2D), b)) as tf.Tensor2D,
  conv2d: (x, w, b, o = {}) => {
    const y = tf.conv2d(x, w as tf.Tensor4D, (o.strides ?? 1) as number, (o.pad ?? 'valid') as 'valid');
    return (b === undefined ? y : tf.add(y, b)) as tf.Tensor4D;
  },
  affine: (x, scale, shift) => (shift === undefined ? tf.mul(x, scale) : tf.add(tf.mul(x, scale), shift)),
};
const xMlp = tf.randomNormal([10, 6], 0, 1, 'float32', 10);
const xCnn = tf.randomNormal([10, 6, 6, 2], 0, 1, 'float32', 11);
const y = tf.tensor1d([0, 1, 2, 0, 1, 2, 0, 1, 2, 0], 'int32');
afterAll(() => tf.dispose([...mlp, ...cnn, xMlp, xCnn, y]));

const cases = [
  { name: 'MLP (dense: ‖a‖·‖g‖)', forward: mlpForward, variables: mlp, x: xMlp, clipNorm: 1 },
  { name: 'CNN (conv: per-example and ghost norms)', forward: cnnForward, variables: cnn, x: xCnn, clipNorm: 7 },
];

describe('dpSgdTapedGradients', () => {
  it.each(cases)('without noise equals the naive per-example loop: $name', ({ forward, variables, x, clipNorm }) => {
    const lossOf = (i: number) => tf.mean(crossEntropyPerExample(forward(tf.slice(x, i, 1), plain), tf.slice(y, i, 1) as tf.Tensor1D)) as tf.Scalar;
    const naive = naiveClippedMean(lossOf, 10, variables, clipNorm, 8);
    expect(naive.norms.some((n) => n > clipNorm) && naive.norms.some((n) => n < clipNorm), naive.norms.join()).toBe(true);
    const { grads, loss, batchSize } = dpSgdTapedGradients(
      forward,
      { x, y },
      { variables, clipNorm, noiseMultiplier: 0, expectedBatchSize: 8, random: seededRandom(1) },
    );
    expect(batchSize).toBe(10);
    for (const v of variables) expect(maxRelativeDifference(grads[v.name]!.dataSync() as Float32Array, naive.grads.get(v.name)!), v.name).toBeLessThan(1e-4);
    tf.dispose([...Object.values(grads), loss]);
  });

  it('gives the same noisy gradient as the per-example loop for the same seed, and leaks nothing', () => {
    const options = { variables: cnn, clipNorm: 2, noiseMultiplier: 1.3, expectedBatchSize: 8 };
    const warm = dpSgdTapedGradients(cnnForward, { x: xCnn, y }, { ...options, random: seededRandom(4) });
    tf.dispose([...Object.values(warm.grads), warm.loss]);
    const before = tf.memory().numTensors;
    const fast = dpSgdTapedGradients(cnnForward, { x: xCnn, y }, { ...options, random: seededRandom(4) });
    expect(tf.memory().numTensors).toBe(before + cnn.length + 1);
    const loop = dpSgdGradients(
      (xb, yb) => tf.mean(crossEntropyPerExample(cnnForward(xb, plain), yb as tf.Tensor1D)) as tf.Scalar,
      { x: xCnn, y },
      { ...options, random: seededRandom(4) },
    );
    for (const v of cnn)
      expect(maxRelativeDifference(fast.grads[v.name]!.dataSync() as Float32Array, loop.grads[v.name]!.dataSync() as Float32Array)).toBeLessThan(1e-4);
    expect(fast.loss.dataSync()[0]).toBeCloseTo(loop.loss.dataSync()[0]!, 5);
    tf.dispose([...Object.values(fast.grads), fast.loss, ...Object.values(loop.grads), loop.loss]);
    expect(tf.memory().numTensors).toBe(before);
  });

  it('an empty batch gives the noise alone', () => {
    const empty = { x: tf.zeros([0, 6]), y: tf.tensor1d([], 'int32') };
    const { grads, loss, batchSize } = dpSgdTapedGradients(mlpForward, empty, {
      variables: mlp,
      clipNorm: 1,
      noiseMultiplier: 0,
      expectedBatchSize: 8,
      random: seededRandom(1),
    });
    expect(batchSize).toBe(0);
    for (const v of mlp) expect(Array.from(grads[v.name]!.dataSync()).every((g) => g === 0)).toBe(true);
    tf.dispose([...Object.values(grads), loss, empty.x, empty.y]);
  });

  it('refuses variables outside the tape or used twice (their per-example norms would be wrong)', () => {
    const options = { clipNorm: 1, noiseMultiplier: 0, expectedBatchSize: 8, random: seededRandom(1) };
    const outside = (x: tf.Tensor, tape: PerExampleTape) =>
      tf.add(tape.dense(tf.tanh(tape.dense(x as tf.Tensor2D, mlp[0]!, mlp[1])), mlp[2]!), mlp[3]!) as tf.Tensor2D;
    const before = tf.memory().numTensors;
    expect(() => dpSgdTapedGradients(outside, { x: xMlp, y }, { ...options, variables: mlp })).toThrow(
      'dpSgdTapedGradients: every trainable variable must be used through the tape (tape.dense / tape.conv2d / tape.affine), got variables outside it: tg/b2',
    );
    const square = normal([6, 6], 0.3, 12, 'tg/sq');
    const head = normal([6, 3], 0.3, 13, 'tg/head');
    const twice = (x: tf.Tensor, tape: PerExampleTape) => tape.dense(tape.dense(tape.dense(x as tf.Tensor2D, square), square), head);
    expect(() => dpSgdTapedGradients(twice, { x: xMlp, y }, { ...options, variables: [square, head] })).toThrow('got variables used more than once: tg/sq');
    tf.dispose([square, head]);
    expect(tf.memory().numTensors).toBe(before);
  });
});
