import * as tf from '@tensorflow/tfjs-core';
import { seededRandom } from '@mia/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { batchNormLayer } from './batch-norm-layer';
import { conv2dLayer } from './conv2d-layer';
import type { RunContext } from './layer';
import { ParameterStore } from './parameter-store';
import { avgPool } from './pooling';
import { useCpu } from './test-utils/classifier-checks';

beforeAll(useCpu);

const ctx = (training: boolean, updateStatistics = training): RunContext => ({ training, updateStatistics, nextSeed: () => 0 });

describe('batchNormLayer', () => {
  it('matches PyTorch BatchNorm2d: biased variance to normalise, unbiased variance in running_var, momentum 0.1', () => {
    const store = new ParameterStore('bnTest', seededRandom(0));
    const bn = batchNormLayer(store, 'bn', 2);
    // Channel 0 = [1, 2, 3, 4]: mean 2.5, biased var 1.25, unbiased var 5/3. Channel 1 = [0, 0, 0, 4]: mean 1, var 3, unbiased 4.
    const x = tf.tensor4d([1, 0, 2, 0, 3, 0, 4, 4], [4, 1, 1, 2]);
    const y = tf.tidy(() => bn(x, ctx(true)));
    const expected = [1, 2, 3, 4].map((v) => (v - 2.5) / Math.sqrt(1.25 + 1e-5));
    const out = y.dataSync();
    expected.forEach((v, i) => expect(out[2 * i]).toBeCloseTo(v, 5));
    const [runningMean, runningVar] = store.state;
    // PyTorch: running_mean = 0.9·0 + 0.1·mean; running_var = 0.9·1 + 0.1·unbiased_var.
    expect(Array.from(runningMean!.dataSync())).toEqual([expect.closeTo(0.25, 6), expect.closeTo(0.1, 6)]);
    expect(Array.from(runningVar!.dataSync())).toEqual([expect.closeTo(0.9 + 0.1 * (5 / 3), 6), expect.closeTo(0.9 + 0.4, 6)]);
    // Eval mode uses the running statistics: (1 − 0.25) / √(running_var + eps).
    const z = tf.tidy(() => bn(x, ctx(false)));
    expect(z.dataSync()[0]).toBeCloseTo(0.75 / Math.sqrt(0.9 + 0.1 * (5 / 3) + 1e-5), 5);
    // updateStatistics = false leaves the running statistics alone.
    tf.tidy(() => bn(x, ctx(true, false)));
    expect(runningMean!.dataSync()[0]).toBeCloseTo(0.25, 6);
    tf.dispose([x, y, z]);
    [...store.trainable, ...store.state].forEach((v) => v.dispose());
  });

  it('updates running statistics inside tf.variableGrads without leaking', () => {
    const store = new ParameterStore('bnGradTest', seededRandom(0));
    const bn = batchNormLayer(store, 'bn', 3);
    const x = tf.randomNormal([6, 2, 2, 3], 1, 2, 'float32', 3);
    const before = tf.memory().numTensors;
    const { value, grads } = tf.variableGrads(() => tf.sum(tf.square(bn(x, ctx(true)))) as tf.Scalar, store.trainable);
    // Σ x̂² over a normalised channel = count·var/(var+eps) ≈ 24 (6·2·2 values), so 72 for 3 channels; dL/dγ = 2·Σx̂² = 48.
    expect(value.dataSync()[0]).toBeCloseTo(72, 2);
    expect(grads[store.trainable[0]!.name]!.dataSync()[0]).toBeCloseTo(48, 2);
    expect(store.state[0]!.dataSync()[0]).not.toBe(0);
    tf.dispose([value, ...Object.values(grads)]);
    expect(tf.memory().numTensors).toBe(before);
    x.dispose();
    [...store.trainable, ...store.state].forEach((v) => v.dispose());
  });
});

describe('conv2dLayer and pooling', () => {
  it('pads symmetrically like PyTorch at stride 2 (not like TF "same")', () => {
    const store = new ParameterStore('convTest', seededRandom(0));
    const conv = conv2dLayer(store, 'c', { inChannels: 1, outChannels: 1, kernelSize: 3, stride: 2, padding: 1, bias: false });
    store.trainable[0]!.assign(tf.ones([3, 3, 1, 1]));
    // 4×4 ones, 3×3 ones kernel, padding 1 each side, stride 2: windows start at −1 and 1 → sums 4, 6, 6, 9.
    const y = tf.tidy(() => conv(tf.ones([1, 4, 4, 1]), ctx(false)));
    expect(Array.from(y.dataSync())).toEqual([4, 6, 6, 9]);
    y.dispose();
    store.trainable[0]!.dispose();
  });

  it('averages with count_include_pad=True like PyTorch AvgPool2d', () => {
    // 2×2 ones, 3×3 window, padding 1: every window holds 4 ones out of 9 cells → 4/9.
    const y = tf.tidy(() => avgPool(3, 1, 1)(tf.ones([1, 2, 2, 1]), ctx(false)));
    Array.from(y.dataSync()).forEach((v) => expect(v).toBeCloseTo(4 / 9, 6));
    y.dispose();
  });
});

describe('gradients of the padded layers (finite differences)', () => {
  // Central differences of L = Σ r ⊙ layer(x) on small float32 tensors: |analytic − numeric| < 2e-2.
  const numericGrad = (f: (x: tf.Tensor) => tf.Scalar, x: tf.Tensor, eps = 1e-2): Float32Array => {
    const base = x.dataSync();
    const out = new Float32Array(base.length);
    for (let i = 0; i < base.length; i++) {
      const at = (d: number) =>
        tf.tidy(() => {
          const v = base.slice();
          v[i] = v[i]! + d;
          return f(tf.tensor(v, x.shape)).dataSync()[0]!;
        });
      out[i] = (at(eps) - at(-eps)) / (2 * eps);
    }
    return out;
  };
  const cases = [
    ['1×3 conv, padding [0, 1]', { kernelSize: [1, 3], padding: [0, 1] }],
    ['7×1 conv, padding [3, 0]', { kernelSize: [7, 1], padding: [3, 0] }],
    ['3×3 conv, stride 2, padding 1', { kernelSize: 3, stride: 2, padding: 1 }],
  ] as const;
  for (const [title, spec] of cases) {
    it(title, () => {
      const store = new ParameterStore('gradTest', seededRandom(1));
      const conv = conv2dLayer(store, 'c', { inChannels: 2, outChannels: 2, ...spec });
      const pool = avgPool(3, 1, 1);
      const x = tf.randomNormal([1, 4, 4, 2], 0, 1, 'float32', 2);
      const outShape = tf.tidy(() => conv(x, ctx(false)).shape);
      const r = tf.randomNormal(outShape, 0, 1, 'float32', 3);
      const loss = (input: tf.Tensor) => tf.sum(tf.mul(pool(conv(input, ctx(false)), ctx(false)), r)) as tf.Scalar;
      const analytic = tf.tidy(() => tf.grad(loss)(x).dataSync());
      const numeric = numericGrad(loss, x);
      for (let i = 0; i < numeric.length; i++) expect(Math.abs(analytic[i]! - numeric[i]!)).toBeLessThan(2e-2);
      tf.dispose([x, r]);
      store.trainable.forEach((v) => v.dispose());
    });
  }
});
