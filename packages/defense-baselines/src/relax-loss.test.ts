import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { InvalidArgumentError, ShapeMismatchError } from '@mia/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { relaxLoss, relaxLossPlugin } from './relax-loss';
import { HAND_LABELS, HAND_LOGITS, maxGradientError } from './test-utils/gradient-check';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

// Hand-built batch: row A p = [.5, .25, .25] (correct, CE = ln 2), row B p = [.25, .5, .25]
// (wrong, CE = ln 4), labels [0, 0]; mean CE ℓ = 1.5·ln 2 = 1.0397208.
// Flattened targets with upper = 1: A t = p → softCE = H(p) = 1.0397208;
// B t = [.25, .375, .375] → softCE = .25 ln4 + .375 ln2 + .375 ln4 = 1.1263642.
// With upper = 0.3: A t = [.3, .35, .35] → softCE = .3 ln2 + .7 ln4 = 1.1783502.
function value(epoch: number, options: Parameters<typeof relaxLoss>[3]): number {
  return tf.tidy(() => relaxLoss(tf.tensor2d(HAND_LOGITS), tf.tensor1d(HAND_LABELS, 'int32'), epoch, options).arraySync());
}

describe('relaxLoss', () => {
  it('takes |ℓ − α| on even epochs (0-based) and ℓ on odd epochs above α', () => {
    expect(value(0, { alpha: 0.5 })).toBeCloseTo(0.5397208, 5);
    expect(value(2, { alpha: 2 })).toBeCloseTo(0.9602792, 5);
    expect(value(1, { alpha: 0.5 })).toBeCloseTo(1.0397208, 5);
  });

  it('flattens posteriors on odd epochs below α: image and tabular variants', () => {
    // image: mean[(1 − 1)·1.0397 − ln2, (1 − 0)·1.1264 − ln4] = mean[−0.6931, −0.2599]
    expect(value(1, { alpha: 2, variant: 'image' })).toBeCloseTo(-0.4765387, 5);
    // tabular: mean[1.0397208, 1.1263642]
    expect(value(1, { alpha: 2, variant: 'tabular' })).toBeCloseTo(1.0830425, 5);
    // upper = 0.3 clamps row A's target: mean[1.1783502, 1.1263642]
    expect(value(1, { alpha: 2, variant: 'tabular', upper: 0.3 })).toBeCloseTo(1.1523572, 5);
  });

  it('shifts the parity with parityOffset (MLHospital counts epochs from 1)', () => {
    expect(value(0, { alpha: 2, variant: 'tabular', parityOffset: 1 })).toBeCloseTo(1.0830425, 5);
    expect(value(1, { alpha: 0.5, parityOffset: 1 })).toBeCloseTo(0.5397208, 5);
  });

  it("computes CRL's Eq. 3 (soft-CE branch, epochs counted from 1) with variant 'tabular' and parityOffset 1", () => {
    // CRL Eq. 3 written out independently: L_ce = mean CE; epoch e (1-based) even → |L_ce − α|;
    // else L_ce > α → L_ce; else mean_i −Σ_j q_ij log p_ij, q_iy = min(p_iy, upper), q_ij = (1 − q_iy)/(C − 1).
    const logits = [
      [1.2, -0.3, 0.4, 0.1],
      [0.2, 0.9, -1.1, 0.3],
      [-0.5, 0.1, 0.2, 1.4],
    ];
    const labels = [0, 2, 3];
    const eq3 = (epoch1: number, alpha: number, upper: number) => {
      const p = logits.map((z) => {
        const m = Math.max(...z);
        const e = z.map((v) => Math.exp(v - m));
        const s = e.reduce((a, b) => a + b, 0);
        return e.map((v) => v / s);
      });
      const ce = p.reduce((a, row, i) => a - Math.log(row[labels[i]!]!), 0) / p.length;
      if (epoch1 % 2 === 0) return Math.abs(ce - alpha);
      if (ce > alpha) return ce;
      return (
        p.reduce((a, row, i) => {
          const qy = Math.min(row[labels[i]!]!, upper);
          return a - row.reduce((t, pj, j) => t + (j === labels[i] ? qy : (1 - qy) / 3) * Math.log(pj), 0);
        }, 0) / p.length
      );
    };
    const ours = (epoch0: number, alpha: number, upper: number) =>
      tf.tidy(() => relaxLoss(tf.tensor2d(logits), tf.tensor1d(labels, 'int32'), epoch0, { alpha, upper, variant: 'tabular', parityOffset: 1 }).arraySync());
    // 0-based epoch 0 is CRL's epoch 1 (odd): below α = 3 the soft-CE branch; above α = 0.2 plain CE.
    for (const [epoch0, alpha, upper] of [
      [0, 3, 1],
      [0, 3, 0.3],
      [0, 0.2, 1],
      [1, 3, 1],
      [1, 0.2, 1],
    ] as const) {
      expect(ours(epoch0, alpha, upper)).toBeCloseTo(eq3(epoch0 + 1, alpha, upper), 5);
    }
    // The soft-CE branch differs from RL's CIFAR branch on the same batch (which subtracts CE on correct rows).
    const image = tf.tidy(() => relaxLoss(tf.tensor2d(logits), tf.tensor1d(labels, 'int32'), 0, { alpha: 3, variant: 'image', parityOffset: 1 }).arraySync());
    expect(Math.abs(image - eq3(1, 3, 1))).toBeGreaterThan(0.5);
  });

  it('matches finite differences in every branch, and detachSoftTargets changes the gradient', () => {
    const labels = tf.tensor1d(HAND_LABELS, 'int32');
    const logits = [
      [0.7, 0.1, -0.2],
      [0.2, 0.9, 0.05],
    ];
    for (const [epoch, options] of [
      [0, { alpha: 0.5 }],
      [1, { alpha: 0.5 }],
      [1, { alpha: 3, variant: 'image' }],
      [1, { alpha: 3, variant: 'tabular', upper: 0.3 }],
      // CRL's Eq. 3 as the CRL paper's comparator: soft CE, epochs counted from 1.
      [0, { alpha: 3, variant: 'tabular', upper: 1, parityOffset: 1 }],
    ] as const) {
      expect(maxGradientError((z) => relaxLoss(z, labels, epoch, options), logits)).toBeLessThan(2e-3);
    }
    const grad = (detach: boolean) =>
      tf.tidy(
        () =>
          tf
            .grad((z: tf.Tensor) => relaxLoss(z as tf.Tensor2D, labels, 1, { alpha: 3, variant: 'tabular', detachSoftTargets: detach }))(tf.tensor2d(logits))
            .arraySync() as number[][],
      );
    // Detached tabular branch: ∂/∂z mean_i softCE(z_i, t_i) with t fixed = (softmax(z) − t)/n.
    const expected = tf.tidy(() => {
      const z = tf.tensor2d(logits);
      const p = tf.softmax(z);
      const oneHot = tf.oneHot(labels, 3);
      const ty = tf.sum(tf.mul(p, oneHot), 1, true);
      const t = tf.add(tf.mul(oneHot, ty), tf.mul(tf.sub(1, oneHot), tf.div(tf.sub(1, ty), 2)));
      return tf.div(tf.sub(p, t), 2).arraySync() as number[][];
    });
    const detached = grad(true);
    detached.flat().forEach((g, k) => expect(g).toBeCloseTo(expected.flat()[k]!, 6));
    expect(detached).not.toEqual(grad(false));
    labels.dispose();
  });

  it('leaks no tensor and validates its arguments', () => {
    const logits = tf.tensor2d(HAND_LOGITS);
    const labels = tf.tensor1d(HAND_LABELS, 'int32');
    const before = tf.memory().numTensors;
    relaxLoss(logits, labels, 1, { alpha: 2 }).dispose();
    expect(tf.memory().numTensors).toBe(before);
    expect(() => relaxLoss(logits, labels, 0, { alpha: 0 })).toThrow(InvalidArgumentError);
    expect(() => relaxLoss(logits, labels, -1)).toThrow(/epoch must be a non-negative integer, got -1/);
    expect(() => relaxLossPlugin({ upper: 2 })).toThrow(/relaxLossPlugin: upper must be a number in \[0, 1\], got 2/);
    expect(() => relaxLossPlugin({ variant: 'soft' as 'tabular' })).toThrow(/relaxLossPlugin: variant must be one of .*image.*tabular.*, got "soft"/);
    expect(() => relaxLoss(logits, labels, 0, { parityOffset: 0.5 })).toThrow(/relaxLoss: parityOffset must be an integer/);
    expect(() => relaxLoss(logits, tf.tensor1d([0], 'int32'), 0)).toThrow(ShapeMismatchError);
    logits.dispose();
    labels.dispose();
  });
});
