import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, ShapeMismatchError, createAttackNetwork, seededRandom } from '@mia/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useCpu } from '../test-utils/setup';
import { gaussianNllLoss } from './gaussian-nll-loss';
import { pinballLoss } from './pinball-loss';
import { trainRegressor } from './train-regressor';

beforeAll(useCpu);

describe('pinballLoss', () => {
  it('matches a hand computation', () => {
    // τ = 0.9; y − q̂ = [2, −1, 0, 0.5] → losses 0.9·2, 0.1·1, 0, 0.9·0.5 = 1.8, 0.1, 0, 0.45; mean 2.35 / 4.
    const loss = pinballLoss(tf.tensor1d([1, 3, 2, -0.5]), tf.tensor1d([3, 2, 2, 0]), 0.9);
    expect(loss.dataSync()[0]).toBeCloseTo(2.35 / 4, 6);
  });

  it('gradient check: tf.grad equals the analytic −τ / (1 − τ) per element, divided by n', () => {
    const y = tf.tensor1d([3, 2, 0.25, -1, 5]);
    const q = tf.tensor1d([1, 3, 0, 0, 4.5]);
    const tau = 0.8;
    const grad = tf
      .grad((p: tf.Tensor) => pinballLoss(p, y, tau))(q)
      .dataSync();
    const analytic = [1, 3, 0, 0, 4.5].map((qi, i) => ([3, 2, 0.25, -1, 5][i]! > qi ? -tau : 1 - tau) / 5);
    analytic.forEach((g, i) => expect(grad[i]).toBeCloseTo(g, 6));
  });

  it('its minimiser over a constant is the τ-quantile of the targets', () => {
    // Targets 0..99: the 0.9-quantile minimises the mean pinball loss; try constants 80..99.
    const y = tf.range(0, 100);
    const lossAt = (c: number) => tf.tidy(() => pinballLoss(tf.fill([100], c), y, 0.9).dataSync()[0]!);
    const best = Array.from({ length: 20 }, (_, i) => 80 + i).reduce((b, c) => (lossAt(c) < lossAt(b) ? c : b));
    expect([89, 90]).toContain(best);
  });

  it('refuses a quantile outside (0, 1) and leaves no tensor behind', () => {
    const a = tf.tensor1d([1]);
    expect(() => pinballLoss(a, a, 1)).toThrow(InvalidArgumentError);
    expect(() => pinballLoss(a, a, 0)).toThrow(/pinballLoss: quantile must be a number in \(0, 1\), got 0/);
    const before = tf.memory().numTensors;
    pinballLoss(a, a, 0.5).dispose();
    expect(tf.memory().numTensors).toBe(before);
    a.dispose();
  });
});

describe('gaussianNllLoss', () => {
  it('matches a hand computation', () => {
    // Rows (μ, s, y): (0, 0, 1) → 0 + ½·1·1 = 0.5; (1, ln 2, 3) → ln 2 + ½·¼·4 = ln 2 + 0.5. Mean.
    const loss = gaussianNllLoss(tf.tensor2d([0, 0, 1, Math.log(2)], [2, 2]), tf.tensor1d([1, 3]));
    expect(loss.dataSync()[0]).toBeCloseTo((0.5 + Math.log(2) + 0.5) / 2, 6);
  });

  it('gradient check: tf.grad equals ∂/∂μ = −e^{−2s}(y − μ), ∂/∂s = 1 − e^{−2s}(y − μ)², divided by n', () => {
    const rows = [
      [0.5, -0.3, 2],
      [-1, 0.7, -0.5],
      [2, 0.1, 2.2],
    ];
    const p = tf.tensor2d(rows.map(([m, s]) => [m!, s!]));
    const y = tf.tensor1d(rows.map((r) => r[2]!));
    const grad = tf
      .grad((t: tf.Tensor) => gaussianNllLoss(t, y))(p)
      .dataSync();
    rows.forEach(([m, s, t], i) => {
      const w = Math.exp(-2 * s!);
      expect(grad[2 * i]).toBeCloseTo((-w * (t! - m!)) / 3, 5);
      expect(grad[2 * i + 1]).toBeCloseTo((1 - w * (t! - m!) ** 2) / 3, 5);
    });
  });

  it('refuses predictions that are not [n, 2]', () => {
    expect(() => gaussianNllLoss(tf.zeros([3, 1]), tf.zeros([3]))).toThrow(ShapeMismatchError);
  });
});

describe('trainRegressor', () => {
  const data = () => {
    // x ∈ {0, 1}: y ~ U(0, 1) when x = 0 and U(10, 11) when x = 1; the 0.9-quantiles are 0.9 and 10.9.
    const random = seededRandom(3);
    const xs = Array.from({ length: 400 }, (_, i) => i % 2);
    return { x: tf.tensor2d(xs, [400, 1]), y: xs.map((v) => v * 10 + random.next()) };
  };
  const fit = async (seed: number) => {
    const { x, y } = data();
    const net = createAttackNetwork({ inputDim: 1, layers: [{ units: 16 }, { units: 1 }], seed });
    const { losses } = await trainRegressor(net, x, y, {
      loss: (out, t) => pinballLoss(tf.reshape(tf.slice(out, [0, 1], [-1, 1]), [-1]), t, 0.9),
      epochs: 60,
      batchSize: 50,
      learningRate: 0.03,
      seed,
    });
    const pred = tf.tidy(() => tf.slice(net.forward(tf.tensor2d([0, 1], [2, 1]), { training: false }).logits, [0, 1], [-1, 1]).dataSync());
    net.dispose();
    x.dispose();
    return { losses, pred: Array.from(pred) };
  };

  it('learns the conditional 0.9-quantile, is seeded and leaves no tensor behind', async () => {
    const before = tf.memory().numTensors;
    const a = await fit(1);
    expect(tf.memory().numTensors).toBe(before);
    expect(a.pred[0]).toBeCloseTo(0.9, 0);
    expect(a.pred[1]).toBeCloseTo(10.9, 0);
    expect(a.losses.at(-1)!).toBeLessThan(a.losses[0]!);
    const b = await fit(1);
    expect(b.pred).toEqual(a.pred);
    expect(b.losses).toEqual(a.losses);
    const c = await fit(2);
    expect(c.pred).not.toEqual(a.pred);
  });

  it('validates its input before any step', async () => {
    const net = createAttackNetwork({ inputDim: 1, layers: [{ units: 1 }] });
    const x = tf.zeros([3, 1]);
    const loss = (o: tf.Tensor2D, t: tf.Tensor1D) => pinballLoss(o, t, 0.5);
    await expect(trainRegressor(net, x, [1, 2], { loss, epochs: 1, batchSize: 1 })).rejects.toThrow(/targets must have one value per row of x \(3\)/);
    await expect(trainRegressor(net, x, [1, NaN, 2], { loss, epochs: 1, batchSize: 1 })).rejects.toThrow(/targets\[1\] must be a finite number, got NaN/);
    await expect(trainRegressor(net, x, [1, 2, 3], { loss, epochs: 0, batchSize: 1 })).rejects.toThrow(/epochs must be a positive integer, got 0/);
    net.dispose();
    x.dispose();
  });
});
