import { DENSE_BIAS, DENSE_BIAS_GRAD_BIAS, DENSE_BIAS_GRAD_INPUT, DENSE_BIAS_GRAD_WEIGHT, denseBias, type DenseActivation } from '@mia/core';
import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, expect, it } from 'vitest';
import { nativeKernelStats, resetNativeKernelStats } from '../kernel-stats';
import { loadNativeAddon } from '../load-native-addon';
import { expectFallbackThrows, expectMatchesCpu, randomTensor, setupNative } from '../test-utils/backends';
import { describeNative } from '../test-utils/native-available';

const activations: DenseActivation[] = ['linear', 'relu', 'tanh'];
const kernels = [DENSE_BIAS, DENSE_BIAS_GRAD_INPUT, DENSE_BIAS_GRAD_WEIGHT, DENSE_BIAS_GRAD_BIAS];

/** The ops denseBias replaces. */
function unfused(x: tf.Tensor, w: tf.Tensor, b: tf.Tensor, activation: DenseActivation): tf.Tensor {
  const z = tf.add(tf.matMul(x as tf.Tensor2D, w as tf.Tensor2D), b);
  return activation === 'relu' ? tf.relu(z) : activation === 'tanh' ? tf.tanh(z) : z;
}

/** y, then the gradients in x, weight and bias of Σ r·f (r fixed weights), as tensors. */
function forwardAndGradients(f: typeof unfused, activation: DenseActivation, [rows, fin, fout]: number[], x?: tf.Tensor): tf.Tensor[] {
  const xs = x ?? tf.mul(randomTensor([rows!, fin!], 1), 2);
  const [w, b, r] = [randomTensor([fin!, fout!], 2), randomTensor([fout!], 3), randomTensor([rows!, fout!], 4)];
  const grads = tf.grads((a: tf.Tensor, c: tf.Tensor, d: tf.Tensor) => tf.sum(tf.mul(f(a, c, d, activation), r)))([xs, w, b]);
  return [f(xs, w, b, activation), ...grads];
}

/** The bits of each tensor's values, NaN payloads aside (any NaN compares as the canonical NaN). */
function bits(ts: tf.Tensor[]): number[][] {
  return ts.map((t) => Array.from(new Uint32Array(Float32Array.from(t.dataSync(), (v) => (Number.isNaN(v) ? NaN : v)).buffer)));
}

// Shapes: small; a Purchase MLP layer (the epilogue, the activation gradient and the bias sums on 2
// threads); one output column (a single double sum, as Sum over one column); one row; out > in.
const shapes = [
  [7, 5, 3],
  [128, 600, 1024],
  [128, 32, 1],
  [1, 16, 8],
  [300, 64, 300],
];

describeNative("@mia/core's denseBias on the native kernels", () => {
  beforeAll(setupNative);

  for (const activation of activations) {
    it(`${activation}: y and the three gradients are bit-equal to matMul, add and ${activation === 'linear' ? 'nothing' : activation} on the native kernels`, () => {
      expect.hasAssertions();
      for (const shape of shapes) {
        tf.tidy(() => {
          resetNativeKernelStats();
          const fused = bits(forwardAndGradients((x, w, b, a) => denseBias(x, w, b, a), activation, shape));
          const stats = nativeKernelStats();
          for (const k of kernels) expect(stats[k]?.native, `${k} ran natively`).toBeGreaterThan(0);
          expect(stats['BatchMatMul'], 'no separate matrix product').toBeUndefined();
          const reference = bits(forwardAndGradients(unfused, activation, shape));
          fused.forEach((v, i) => expect(v, `shape [${shape.join(',')}], output ${i}`).toEqual(reference[i]));
        });
      }
    });

    it(`${activation}: NaN, ±Inf and ±0 inputs give the unfused results`, () => {
      expect.hasAssertions();
      tf.tidy(() => {
        const x = tf.tensor2d([
          [NaN, 1, 2],
          [Infinity, -1, 0],
          [-0, 0, 1e30],
          [20, -20, 0.5],
        ]);
        const fused = bits(forwardAndGradients((a, w, b, act) => denseBias(a, w, b, act), activation, [4, 3, 5], x));
        expect(fused).toEqual(bits(forwardAndGradients(unfused, activation, [4, 3, 5], x)));
      });
    });
  }

  it('in bf16 precision (where the CPU has it) computes its products in bf16 and stays bit-equal to matMul, add and tanh', () => {
    const addon = loadNativeAddon();
    if (!addon.info().bf16) return;
    expect.hasAssertions();
    tf.tidy(() => {
      const fp32 = bits(forwardAndGradients((x, w, b, a) => denseBias(x, w, b, a), 'tanh', [128, 600, 64]));
      addon.setPrecision('bf16');
      try {
        const fused = bits(forwardAndGradients((x, w, b, a) => denseBias(x, w, b, a), 'tanh', [128, 600, 64]));
        expect(fused).toEqual(bits(forwardAndGradients(unfused, 'tanh', [128, 600, 64])));
        expect(fused[0], 'the forward product was rounded to bf16').not.toEqual(fp32[0]);
      } finally {
        addon.setPrecision('fp32');
      }
    });
  });

  it('agrees with the cpu backend (values and gradients)', async () => {
    expect.hasAssertions();
    for (const activation of activations) {
      await expectMatchesCpu(() => forwardAndGradients((x, w, b, a) => denseBias(x, w, b, a), activation, [33, 40, 17]), { native: kernels });
    }
  });

  it('computes no input gradient for a first layer (its input is data)', () => {
    expect.hasAssertions();
    tf.tidy(() => {
      const [x, w, b] = [randomTensor([16, 8], 1), randomTensor([8, 4], 2), randomTensor([4], 3)];
      resetNativeKernelStats();
      tf.grads((c: tf.Tensor, d: tf.Tensor) => tf.sum(denseBias(x, c, d, 'tanh')))([w, b]);
      const stats = nativeKernelStats();
      expect(stats[DENSE_BIAS_GRAD_INPUT]).toBeUndefined();
      expect([stats[DENSE_BIAS_GRAD_WEIGHT]?.native, stats[DENSE_BIAS_GRAD_BIAS]?.native]).toEqual([1, 1]);
    });
  });

  it('shapes that do not fit (through runKernel) fall back; the wasm backend has no such kernel', async () => {
    expect.hasAssertions();
    await expectFallbackThrows(
      () =>
        tf
          .engine()
          .runKernel(
            DENSE_BIAS,
            { x: randomTensor([2, 3], 1), weight: randomTensor([4, 5], 2), bias: randomTensor([5], 3) },
            { activation: 'relu' },
          ) as tf.Tensor,
      DENSE_BIAS,
      /shapes \[2,3\] and \[4,5\]/,
      /has no MiaDenseBias kernel/,
    );
    await expectFallbackThrows(
      () =>
        tf
          .engine()
          .runKernel(
            DENSE_BIAS,
            { x: randomTensor([2, 3], 1), weight: randomTensor([3, 5], 2), bias: randomTensor([5], 3) },
            { activation: 'gelu' },
          ) as tf.Tensor,
      DENSE_BIAS,
      /activation gelu/,
      /has no MiaDenseBias kernel/,
    );
  });
});
