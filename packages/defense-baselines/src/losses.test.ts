import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { beforeAll, describe, expect, it } from 'vitest';
import { confidencePenaltyLoss } from './confidence-penalty-loss';
import { labelSmoothingLoss } from './label-smoothing-loss';
import { HAND_LABELS, HAND_LOGITS, maxGradientError } from './test-utils/gradient-check';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

// Same hand-built batch as relax-loss.test.ts: p_A = [.5, .25, .25], p_B = [.25, .5, .25], y = [0, 0].
const run = (f: (z: tf.Tensor2D, y: tf.Tensor1D) => tf.Scalar) => tf.tidy(() => f(tf.tensor2d(HAND_LOGITS), tf.tensor1d(HAND_LABELS, 'int32')).arraySync());
const GRAD_POINT = [
  [0.7, 0.1, -0.2],
  [0.2, 0.9, 0.05],
];

describe('labelSmoothingLoss', () => {
  it('RL form: ε·mean(−(1/C)Σ log p) + (1−ε)·CE', () => {
    // Both rows: (1/3)(ln2 + 2 ln4) = (5/3) ln2 = 1.1552453; CE mean = 1.5 ln2 = 1.0397208.
    // 0.3·1.1552453 + 0.7·1.0397208 = 1.0743781
    expect(run((z, y) => labelSmoothingLoss(z, y, { epsilon: 0.3 }))).toBeCloseTo(1.0743781, 5);
  });

  it('MLH form: targets 1−ε on y and ε/(C−1) elsewhere', () => {
    // q = [.7, .15, .15]: A = .7 ln2 + .3 ln4 = 0.9010913; B = .7 ln4 + .15 ln2 + .15 ln4 = 1.2823223.
    expect(run((z, y) => labelSmoothingLoss(z, y, { epsilon: 0.3, form: 'mlh' }))).toBeCloseTo(1.0917068, 5);
  });

  it('equals CE at ε = 0 and matches finite differences', () => {
    expect(run((z, y) => labelSmoothingLoss(z, y, { epsilon: 0 }))).toBeCloseTo(1.0397208, 5);
    const y = tf.tensor1d(HAND_LABELS, 'int32');
    for (const form of ['rl', 'mlh'] as const) {
      expect(maxGradientError((z) => labelSmoothingLoss(z, y, { epsilon: 0.4, form }), GRAD_POINT)).toBeLessThan(2e-3);
    }
    y.dispose();
  });

  it('rejects ε outside [0, 1]', () => {
    expect(() => run((z, y) => labelSmoothingLoss(z, y, { epsilon: 1.5 }))).toThrow(/labelSmoothingLoss: epsilon must be a number in \[0, 1\], got 1.5/);
  });
});

describe('confidencePenaltyLoss', () => {
  it('is CE − β·H(p)', () => {
    // H(p_A) = H(p_B) = 1.5 ln2 = 1.0397208 = mean CE, so β = 0.5 gives 0.5·1.0397208.
    expect(run((z, y) => confidencePenaltyLoss(z, y, { beta: 0.5 }))).toBeCloseTo(0.5198604, 5);
  });

  it('matches finite differences and leaks no tensor', () => {
    const y = tf.tensor1d(HAND_LABELS, 'int32');
    expect(maxGradientError((z) => confidencePenaltyLoss(z, y, { beta: 2 }), GRAD_POINT)).toBeLessThan(2e-3);
    const z = tf.tensor2d(GRAD_POINT);
    const before = tf.memory().numTensors;
    confidencePenaltyLoss(z, y).dispose();
    labelSmoothingLoss(z, y, { form: 'mlh' }).dispose();
    expect(tf.memory().numTensors).toBe(before);
    expect(() => confidencePenaltyLoss(z, y, { beta: -1 })).toThrow(/beta must be a number ≥ 0, got -1/);
    z.dispose();
    y.dispose();
  });
});
