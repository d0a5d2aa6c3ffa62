import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { beforeAll, describe, expect, it } from 'vitest';
import { distillationKlLoss } from './distillation-loss';
import { mixupLoss, mmdSquaredBiased } from './mmd-loss';
import { HAND_LOGITS, maxGradientError } from './test-utils/gradient-check';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('mmdSquaredBiased', () => {
  it('matches the hand value on one-hot samples', () => {
    // P = {e1, e2}, Q = {e1, e1}, σ = 1: ‖e1 − e2‖² = 2 → k = e^{-1}.
    // mean K_PP = (2 + 2e^{-1})/4, mean K_QQ = 1, mean K_PQ = (2 + 2e^{-1})/4
    // MMD² = 1 − (1 + e^{-1})/2 = 0.3160603.
    const value = tf.tidy(() =>
      mmdSquaredBiased(
        tf.tensor2d([
          [1, 0],
          [0, 1],
        ]),
        tf.tensor2d([
          [1, 0],
          [1, 0],
        ]),
      ).arraySync(),
    );
    expect(value).toBeCloseTo(0.3160603, 6);
    // σ = 2 scales distances by 1/4: k = e^{-1/4}; MMD² = (1 − e^{-1/4})/2 = 0.1105996.
    expect(
      tf.tidy(() =>
        mmdSquaredBiased(
          tf.tensor2d([
            [1, 0],
            [0, 1],
          ]),
          tf.tensor2d([
            [1, 0],
            [1, 0],
          ]),
          2,
        ).arraySync(),
      ),
    ).toBeCloseTo(0.1105996, 6);
    expect(tf.tidy(() => mmdSquaredBiased(tf.tensor2d([[0.2, 0.8]]), tf.tensor2d([[0.2, 0.8]])).arraySync())).toBeCloseTo(0, 6);
  });

  it('matches finite differences in P', () => {
    const q = tf.tensor2d([
      [0.7, 0.2, 0.1],
      [0.1, 0.1, 0.8],
    ]);
    expect(
      maxGradientError(
        (p) => mmdSquaredBiased(p, q),
        [
          [0.5, 0.3, 0.2],
          [0.2, 0.6, 0.2],
          [0.3, 0.3, 0.4],
        ],
      ),
    ).toBeLessThan(1e-3);
    q.dispose();
  });

  it('rejects mismatched widths and leaks no tensor', () => {
    const p = tf.tensor2d([[1, 0]]);
    const before = tf.memory().numTensors;
    mmdSquaredBiased(p, p).dispose();
    expect(tf.memory().numTensors).toBe(before);
    expect(() => mmdSquaredBiased(p, tf.tensor2d([[1, 0, 0]]))).toThrow(/mmdSquaredBiased: p and q must be \[n, d\] and \[m, d\]/);
    p.dispose();
  });
});

describe('mixupLoss', () => {
  it('is λ·CE(y_a) + (1 − λ)·CE(y_b)', () => {
    // CE with y_a = [0, 0]: mean(ln2, ln4) = 1.0397208; with y_b = [1, 2]: both p = .25 → ln4 = 1.3862944.
    // 0.25·1.0397208 + 0.75·1.3862944 = 1.2996510
    const value = tf.tidy(() => mixupLoss(tf.tensor2d(HAND_LOGITS), tf.tensor1d([0, 0], 'int32'), tf.tensor1d([1, 2], 'int32'), 0.25).arraySync());
    expect(value).toBeCloseTo(1.299651, 5);
  });

  it('matches finite differences', () => {
    const a = tf.tensor1d([0, 2], 'int32');
    const b = tf.tensor1d([1, 2], 'int32');
    expect(
      maxGradientError(
        (z) => mixupLoss(z, a, b, 0.3),
        [
          [0.3, -0.2, 0.5],
          [1, 0, -1],
        ],
      ),
    ).toBeLessThan(1e-3);
    expect(() => mixupLoss(tf.zeros([2, 3]), a, b, 1.5)).toThrow(/mixupLoss: lambda must be a number in \[0, 1\], got 1.5/);
    a.dispose();
    b.dispose();
  });
});

describe('distillationKlLoss', () => {
  it('matches KL(softmax(u/τ) ‖ softmax(z/τ)) with PyTorch reductions', () => {
    // z = [ln2, 0, 0] → s = [.5, .25, .25]; u = 0 → q = 1/3 each.
    // KL = (1/3)[(ln⅓ − ln½) + 2(ln⅓ − ln¼)] = 0.0566330; 'mean' divides by n·C = 3 → 0.0188777.
    const run = (options: Parameters<typeof distillationKlLoss>[2]) =>
      tf.tidy(() => distillationKlLoss(tf.tensor2d([HAND_LOGITS[0]!]), tf.zeros([1, 3]), options).arraySync());
    expect(run({ reduction: 'batchmean' })).toBeCloseTo(0.056633, 5);
    expect(run({})).toBeCloseTo(0.0188777, 6);
    // τ = 2: s = [√2, 1, 1]/(2 + √2) → KL = 0.0138104 (batchmean).
    expect(run({ temperature: 2, reduction: 'batchmean' })).toBeCloseTo(0.0138104, 6);
  });

  it('matches finite differences and validates τ', () => {
    const u = tf.tensor2d([
      [1, 0.5, -1],
      [0, 2, 0],
    ]);
    expect(
      maxGradientError(
        (z) => distillationKlLoss(z, u, { temperature: 3 }),
        [
          [0.2, 0.1, 0],
          [1, -1, 0.5],
        ],
      ),
    ).toBeLessThan(1e-3);
    expect(() => distillationKlLoss(u, u, { temperature: 0 })).toThrow(/distillationKlLoss: temperature must be/);
    u.dispose();
  });
});
