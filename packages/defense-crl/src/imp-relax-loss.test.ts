import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, ShapeMismatchError } from '@mia/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { impRelaxLoss } from './imp-relax-loss';
import { finiteDifferenceGradient } from './test-utils/finite-difference';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

// Expected values: NumPy transcription of docs/protocol.md §4.3 (float64), for
// z = [[2, 0, −1], [0, 1, 0.5]], y = [0, 2]. With t = 1 the mean CE of the normalised logits is
// 0.8885332123413338; with t = 0 it is the plain CE 0.6750578450990101.
const z = () =>
  tf.tensor2d([
    [2, 0, -1],
    [0, 1, 0.5],
  ]);
const y = () => tf.tensor1d([0, 2], 'int32');
const run = (opts: Parameters<typeof impRelaxLoss>[2]) => {
  const l = impRelaxLoss(z(), y(), opts);
  const v = l.dataSync()[0]!;
  tf.dispose([l]);
  return v;
};

describe('impRelaxLoss branches (known answers)', () => {
  it('odd epoch, ℓ > α: ℓ (epoch 0 is CRL epoch 1)', () => {
    expect(run({ alpha: 0.5, t: 1, epoch: 0 })).toBeCloseTo(0.8885332123413338, 5);
    expect(run({ alpha: 0.5, t: 1, epoch: 2 })).toBeCloseTo(0.8885332123413338, 5);
  });
  it('even epoch: |ℓ − α|', () => {
    expect(run({ alpha: 0.5, t: 1, epoch: 1 })).toBeCloseTo(0.38853321234133376, 5);
  });
  it('parityOffset 0 makes 0-based epoch 0 even (RelaxLoss convention)', () => {
    expect(run({ alpha: 0.5, t: 1, epoch: 0, parityOffset: 0 })).toBeCloseTo(0.38853321234133376, 5);
  });
  it('odd epoch, ℓ ≤ α: soft CE with targets from the un-normalised softmax', () => {
    expect(run({ alpha: 2, t: 1, epoch: 0 })).toBeCloseTo(0.9488708125469456, 5);
    expect(run({ alpha: 2, t: 1, epoch: 0, upper: 0.6 })).toBeCloseTo(1.0430417047542324, 5);
  });
  it('t = 0 is plain (un-normalised) CE', () => {
    expect(run({ alpha: 0.3, t: 0, epoch: 0 })).toBeCloseTo(0.6750578450990101, 5);
    expect(run({ alpha: 0.1, t: 0, epoch: 1 })).toBeCloseTo(0.5750578450990101, 5);
  });
});

describe('impRelaxLoss validation', () => {
  it('rejects an alpha below the logit-normalisation floor and names the floor', () => {
    // floor(t = 1, C = 3) = log(1 + 2·exp(−√1.5)) = 0.46226457975290286
    expect(() => run({ alpha: 0.3, t: 1, epoch: 0 })).toThrow(
      /impRelaxLoss: alpha must be greater than the logit-normalisation floor .* = 0\.4623 for t = 1, C = 3/,
    );
  });
  it('rejects bad epochs, options and shapes', () => {
    expect(() => run({ alpha: 1, epoch: -1 })).toThrow(/epoch must be a non-negative integer/);
    expect(() => run({ alpha: 1, epoch: 0, upper: 2 })).toThrow(InvalidArgumentError);
    expect(() => impRelaxLoss(z(), tf.tensor1d([0], 'int32'), { alpha: 1, epoch: 0 })).toThrow(ShapeMismatchError);
  });
  it('leaks no tensor (loss and gradient)', () => {
    const zz = z();
    const yy = y();
    const before = tf.memory().numTensors;
    impRelaxLoss(zz, yy, { alpha: 2, t: 1, epoch: 0 }).dispose();
    tf.grad((l: tf.Tensor) => impRelaxLoss(l as tf.Tensor2D, yy, { alpha: 0.5, t: 1, epoch: 1 }))(zz).dispose();
    expect(tf.memory().numTensors).toBe(before);
    tf.dispose([zz, yy]);
  });
});

describe('impRelaxLoss gradient check (tf.grad vs central differences)', () => {
  const cases: [string, Parameters<typeof impRelaxLoss>[2]][] = [
    ['CE branch', { alpha: 0.5, t: 1, epoch: 0 }],
    ['even branch', { alpha: 0.5, t: 1, epoch: 1 }],
    ['soft branch', { alpha: 2, t: 1, epoch: 0, upper: 0.6 }],
    ['soft branch, t = 0.1', { alpha: 2, t: 0.1, epoch: 0 }],
  ];
  for (const [name, opts] of cases) {
    it(name, () => {
      const zz = tf.tensor2d([
        [2, 0, -1],
        [0, 1, 0.5],
        [0.3, -0.7, 1.2],
      ]);
      const yy = tf.tensor1d([0, 2, 1], 'int32');
      const loss = (l: tf.Tensor) => impRelaxLoss(l as tf.Tensor2D, yy, opts);
      const g = tf.grad(loss)(zz);
      const fd = finiteDifferenceGradient(loss, zz, 1e-2);
      const got = g.dataSync();
      for (let k = 0; k < fd.length; k++) expect(got[k]!).toBeCloseTo(fd[k]!, 3);
      tf.dispose([zz, yy, g]);
    });
  }
});
