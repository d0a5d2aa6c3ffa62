import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { seededRandom } from '@mia/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxRelativeDifference, naiveClippedMean } from '../test-utils/naive-dp';
import { dpSgdGradients } from './dp-sgd-gradients';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

// A two-layer tanh network as plain variables, 6 → 5 → 3, and a batch of 12 examples.
const vars = [
  tf.variable(tf.randomNormal([6, 5], 0, 0.8, 'float32', 1), true, 'dpg/w1'),
  tf.variable(tf.randomNormal([5], 0, 0.1, 'float32', 2), true, 'dpg/b1'),
  tf.variable(tf.randomNormal([5, 3], 0, 0.8, 'float32', 3), true, 'dpg/w2'),
];
const [w1, b1, w2] = vars as [tf.Variable, tf.Variable, tf.Variable];
const x = tf.randomNormal([12, 6], 0, 1, 'float32', 4);
const y = tf.tensor1d([0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2], 'int32');
const loss = (xb: tf.Tensor, yb: tf.Tensor): tf.Scalar =>
  tf.tidy(() => {
    const logits = tf.matMul(tf.tanh(tf.add(tf.matMul(xb as tf.Tensor2D, w1 as tf.Tensor2D), b1)), w2 as tf.Tensor2D);
    return tf.losses.softmaxCrossEntropy(tf.oneHot(yb as tf.Tensor1D, 3), logits) as tf.Scalar;
  });
afterAll(() => tf.dispose([...vars, x, y]));

const options = (over: Partial<Parameters<typeof dpSgdGradients>[2]> = {}) => ({
  variables: vars,
  clipNorm: 0.5,
  noiseMultiplier: 0,
  expectedBatchSize: 10,
  random: seededRandom(3),
  ...over,
});

describe('dpSgdGradients', () => {
  it('without noise equals a naive per-example loop (clip to C over all variables jointly, sum, ÷ expected batch size)', () => {
    const naive = naiveClippedMean((i) => loss(tf.slice(x, i, 1), tf.slice(y, i, 1)), 12, vars, 0.5, 10);
    // The check is meaningful only if the clipping bites for some examples and not for others.
    expect(naive.norms.some((n) => n > 0.5)).toBe(true);
    expect(naive.norms.some((n) => n < 0.5)).toBe(true);
    const { grads, loss: l, batchSize } = dpSgdGradients(loss, { x, y }, options());
    expect(batchSize).toBe(12);
    for (const v of vars) expect(maxRelativeDifference(grads[v.name]!.dataSync() as Float32Array, naive.grads.get(v.name)!)).toBeLessThan(1e-5);
    // The reported loss is the batch's mean loss.
    const mean = loss(x, y);
    expect(l.dataSync()[0]).toBeCloseTo(mean.dataSync()[0]!, 5);
    tf.dispose([...Object.values(grads), l, mean]);
  });

  it('adds N(0, σ²C²) per coordinate before dividing by the expected batch size', () => {
    // Zero gradients (the loss is connected to the variable but constant), so the output is pure
    // noise/(qN). 40 000 coordinates: the sample std has relative standard error 1/√(2n) ≈ 0.35 %,
    // so a 2 % tolerance is > 5 standard errors; the mean's standard error is std/√n = 0.5 % of std.
    const big = tf.variable(tf.zeros([200, 200]), true, 'dpg/big');
    const zeroLoss = (xb: tf.Tensor) => tf.mul(tf.sum(big), tf.mul(0, tf.sum(xb))) as tf.Scalar;
    const sigma = 1.3;
    const clipNorm = 0.7;
    const expectedBatchSize = 10;
    const { grads, loss: l } = dpSgdGradients(zeroLoss, { x, y }, options({ variables: [big], noiseMultiplier: sigma, clipNorm, expectedBatchSize }));
    const values = grads[big.name]!.dataSync();
    let mean = 0;
    for (const v of values) mean += v / values.length;
    let variance = 0;
    for (const v of values) variance += (v - mean) ** 2 / (values.length - 1);
    const want = (sigma * clipNorm) / expectedBatchSize;
    expect(Math.abs(Math.sqrt(variance) / want - 1)).toBeLessThan(0.02);
    expect(Math.abs(mean)).toBeLessThan((5 * want) / Math.sqrt(values.length));
    tf.dispose([big, ...Object.values(grads), l]);
  });

  it('is bit-reproducible for a seed, and draws fresh noise on every call', () => {
    const run = (random: ReturnType<typeof seededRandom>) => {
      const { grads, loss: l } = dpSgdGradients(loss, { x, y }, options({ noiseMultiplier: 1, random }));
      const out = vars.map((v) => Array.from(grads[v.name]!.dataSync()));
      tf.dispose([...Object.values(grads), l]);
      return out;
    };
    expect(run(seededRandom(11))).toEqual(run(seededRandom(11)));
    expect(run(seededRandom(11))).not.toEqual(run(seededRandom(12)));
    const random = seededRandom(11);
    expect(run(random)).not.toEqual(run(random));
  });

  it('handles an empty Poisson batch: the update is the noise alone', () => {
    const empty = { x: tf.zeros([0, 6]), y: tf.tensor1d([], 'int32') };
    const { grads, loss: l, batchSize } = dpSgdGradients(loss, empty, options({ noiseMultiplier: 0 }));
    expect(batchSize).toBe(0);
    expect(l.dataSync()[0]).toBe(0);
    for (const v of vars) expect(Array.from(grads[v.name]!.dataSync()).every((g) => g === 0)).toBe(true);
    tf.dispose([...Object.values(grads), l]);
    const noisy = dpSgdGradients(loss, empty, options({ noiseMultiplier: 1 }));
    expect(Array.from(noisy.grads[w1.name]!.dataSync()).some((g) => g !== 0)).toBe(true);
    tf.dispose([...Object.values(noisy.grads), noisy.loss, empty.x, empty.y]);
  });

  it('leaks no tensor', () => {
    const result = dpSgdGradients(loss, { x, y }, options({ noiseMultiplier: 1 }));
    tf.dispose([...Object.values(result.grads), result.loss]);
    const before = tf.memory().numTensors;
    const again = dpSgdGradients(loss, { x, y }, options({ noiseMultiplier: 1 }));
    expect(tf.memory().numTensors).toBe(before + vars.length + 1); // the grads and the loss, nothing else
    tf.dispose([...Object.values(again.grads), again.loss]);
    expect(tf.memory().numTensors).toBe(before);
  });

  it('rejects bad options naming the argument', () => {
    expect(() => dpSgdGradients(loss, { x, y }, options({ clipNorm: 0 }))).toThrow('dpSgdGradients: clipNorm must be a number > 0, got 0');
    expect(() => dpSgdGradients(loss, { x, y }, options({ noiseMultiplier: -0.5 }))).toThrow('dpSgdGradients: noiseMultiplier must be a number ≥ 0, got -0.5');
    expect(() => dpSgdGradients(loss, { x, y }, options({ random: 3 as never }))).toThrow(
      'dpSgdGradients: random must be a Random (seededRandom from @mia/core), got 3',
    );
    const y5 = tf.tensor1d([0, 1, 2, 0, 1], 'int32');
    expect(() => dpSgdGradients(loss, { x, y: y5 }, options())).toThrow('dpSgdGradients: batch.y must be 12 rows (one per example of batch.x), got "5 rows"');
    y5.dispose();
  });
});
