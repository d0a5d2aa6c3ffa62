import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { ShapeMismatchError } from '@mia/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { relaxedCenterLoss, type RelaxedCenterLossOptions } from './relaxed-center-loss';
import { finiteDifferenceGradient } from './test-utils/finite-difference';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

// Expected values: NumPy transcription of docs/protocol.md §4.3 (float64) for
// f = [[1, 2], [−1, 0.5]], z = [[2, 0, −1], [0, 1, 0.5]], y = [0, 2],
// c = [[0.5, 0.5], [1, −1], [0, 1]]. dist = 0.2180374522203184 with t = 0.5, 0.9375 with t = 0.
const inputs = () => ({
  f: tf.tensor2d([
    [1, 2],
    [-1, 0.5],
  ]),
  z: tf.tensor2d([
    [2, 0, -1],
    [0, 1, 0.5],
  ]),
  y: tf.tensor1d([0, 2], 'int32'),
  c: tf.tensor2d([
    [0.5, 0.5],
    [1, -1],
    [0, 1],
  ]),
});
const run = (opts: RelaxedCenterLossOptions) => {
  const { f, z, y, c } = inputs();
  const l = relaxedCenterLoss(f, z, y, c, opts);
  const v = l.dataSync()[0]!;
  tf.dispose([f, z, y, c, l]);
  return v;
};

describe('relaxedCenterLoss branches (known answers)', () => {
  it('odd epoch, dist > α: dist', () => {
    expect(run({ alpha: 0.1, t: 0.5, epoch: 0 })).toBeCloseTo(0.2180374522203184, 5);
  });
  it('even epoch: |dist − α|', () => {
    expect(run({ alpha: 0.1, t: 0.5, epoch: 1 })).toBeCloseTo(0.11803745222031839, 5);
  });
  it('odd epoch, dist ≤ α: Σ[π·D + (1−π)·‖f̃‖²]/(2B)', () => {
    expect(run({ alpha: 5, t: 0.5, epoch: 0 })).toBeCloseTo(0.24533065889610584, 5);
    expect(run({ alpha: 5, t: 0.5, epoch: 0, upper: 0.5 })).toBeCloseTo(0.31181426409481217, 5);
    expect(run({ alpha: 5, t: 0, epoch: 0 })).toBeCloseTo(1.0351282909491628, 5);
  });
  it('rejects mismatched shapes', () => {
    const { f, z, y } = inputs();
    const c = tf.zeros([3, 5]) as tf.Tensor2D;
    expect(() => relaxedCenterLoss(f, z, y, c, { alpha: 1, epoch: 0 })).toThrow(ShapeMismatchError);
    tf.dispose([f, z, y, c]);
  });
});

describe('relaxedCenterLoss gradients', () => {
  it('un-normalised dist branch: ∂/∂f_i = (f_i − c_{y_i})/B and ∂/∂c_k = −Σ_{y_i=k}(f_i − c_k)/B (hand derivation)', () => {
    const { f, z, y, c } = inputs();
    const [gf, gc] = tf.grads((ff: tf.Tensor, cc: tf.Tensor) => relaxedCenterLoss(ff as tf.Tensor2D, z, y, cc as tf.Tensor2D, { alpha: 0.1, t: 0, epoch: 0 }))([
      f,
      c,
    ]);
    // f − c_y = [[0.5, 1.5], [−1, −0.5]], B = 2
    expect(Array.from(gf!.dataSync())).toEqual([0.25, 0.75, -0.5, -0.25]);
    expect(Array.from(gc!.dataSync())).toEqual([-0.25, -0.75, 0, 0, 0.5, 0.25]);
    tf.dispose([f, z, y, c, gf!, gc!]);
  });
  const cases: [string, RelaxedCenterLossOptions][] = [
    ['dist branch, t = 0.5', { alpha: 0.1, t: 0.5, epoch: 0 }],
    ['even branch, t = 0.5', { alpha: 0.1, t: 0.5, epoch: 1 }],
    ['relaxed branch, t = 0.5, upper 0.5', { alpha: 5, t: 0.5, epoch: 0, upper: 0.5 }],
  ];
  for (const [name, opts] of cases) {
    it(`${name}: tf.grad vs central differences (features, logits, centres)`, () => {
      const { f, z, y, c } = inputs();
      const checks: [tf.Tensor, (v: tf.Tensor) => tf.Scalar][] = [
        [f, (v) => relaxedCenterLoss(v as tf.Tensor2D, z, y, c, opts)],
        [z, (v) => relaxedCenterLoss(f, v as tf.Tensor2D, y, c, opts)],
        [c, (v) => relaxedCenterLoss(f, z, y, v as tf.Tensor2D, opts)],
      ];
      // logits only enter through π, i.e. not at all in the even and dist branches
      for (const [x, loss] of opts.alpha < 1 ? [checks[0]!, checks[2]!] : checks) {
        const g = tf.grad(loss)(x);
        const fd = finiteDifferenceGradient(loss, x, 1e-2);
        const got = g.dataSync();
        for (let k = 0; k < fd.length; k++) expect(got[k]!).toBeCloseTo(fd[k]!, 3);
        g.dispose();
      }
      tf.dispose([f, z, y, c]);
    });
  }
  it('leaks no tensor', () => {
    const { f, z, y, c } = inputs();
    const before = tf.memory().numTensors;
    relaxedCenterLoss(f, z, y, c, { alpha: 5, epoch: 0 }).dispose();
    tf.grad((v: tf.Tensor) => relaxedCenterLoss(f, z, y, v as tf.Tensor2D, { alpha: 0.1, epoch: 1 }))(c).dispose();
    expect(tf.memory().numTensors).toBe(before);
    tf.dispose([f, z, y, c]);
  });
});
