import { SOFTMAX_CROSS_ENTROPY, SOFTMAX_CROSS_ENTROPY_GRAD, crossEntropy, crossEntropyPerExample } from '@mia/core';
import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, expect, it } from 'vitest';
import { nativeKernelStats, resetNativeKernelStats } from '../kernel-stats';
import { expectFallbackThrows, expectMatchesCpu, randomTensor, setupNative } from '../test-utils/backends';
import { describeNative } from '../test-utils/native-available';

/** crossEntropyPerExample's tfjs ops (what runs where no backend fuses it). */
function unfused(z: tf.Tensor2D, y: tf.Tensor1D): tf.Tensor1D {
  return tf.tidy(() => tf.sub(tf.logSumExp(z, 1), tf.sum(tf.mul(tf.oneHot(tf.cast(y, 'int32'), z.shape[1]!), z), 1)) as tf.Tensor1D);
}

/** Losses, their mean, the gradient of Σ w·loss and the gradient of the mean, as tensors. */
function lossesAndGradients(
  perExample: (z: tf.Tensor2D, y: tf.Tensor1D) => tf.Tensor1D,
  mean: (z: tf.Tensor2D, y: tf.Tensor1D) => tf.Scalar,
  z: tf.Tensor2D,
  y: tf.Tensor1D,
): tf.Tensor[] {
  const w = randomTensor([z.shape[0]!], 9);
  return [
    perExample(z, y),
    mean(z, y),
    tf.grad((a: tf.Tensor) => tf.sum(tf.mul(perExample(a as tf.Tensor2D, y), w)))(z),
    tf.grad((a: tf.Tensor) => mean(a as tf.Tensor2D, y))(z),
  ];
}

const fused = (z: tf.Tensor2D, y: tf.Tensor1D) => lossesAndGradients(crossEntropyPerExample, crossEntropy, z, y);
const reference = (z: tf.Tensor2D, y: tf.Tensor1D) => lossesAndGradients(unfused, (a, b) => tf.mean(unfused(a, b)) as tf.Scalar, z, y);

/** Bits of the values, NaN payloads aside. */
const bits = (ts: tf.Tensor[]): number[][] =>
  ts.map((t) => Array.from(new Uint32Array(Float32Array.from(t.dataSync(), (v) => (Number.isNaN(v) ? NaN : v)).buffer)));

/** Labels cycling through the classes, with some outside [0, C) (they pick no logit, as tfjs's oneHot). */
const labels = (n: number, c: number): tf.Tensor1D =>
  tf.tensor1d(
    Array.from({ length: n }, (_, i) => (i % 13 === 12 ? c : i % 11 === 10 ? -1 : (i * 7) % c)),
    'int32',
  );

describeNative("@mia/core's cross-entropy on the native kernels", () => {
  beforeAll(setupNative);

  it('losses, mean and both gradients are bit-equal to the tfjs ops on the native kernels', () => {
    expect.hasAssertions();
    for (const [n, c] of [
      [128, 100],
      [128, 2],
      [1000, 100],
      [1, 7],
    ] as const) {
      tf.tidy(() => {
        const z = tf.mul(randomTensor([n, c], 1), 8) as tf.Tensor2D;
        const y = labels(n, c);
        resetNativeKernelStats();
        const f = bits(fused(z, y));
        const stats = nativeKernelStats();
        expect([stats[SOFTMAX_CROSS_ENTROPY]?.native, stats[SOFTMAX_CROSS_ENTROPY_GRAD]?.native]).toEqual([4, 2]);
        expect(stats['Exp'], 'no separate exp').toBeUndefined();
        expect(f, `[${n}, ${c}]`).toEqual(bits(reference(z, y)));
      });
    }
  });

  it('NaN, ±Inf, ties for the maximum and huge logits give the results of the tfjs ops', () => {
    expect.hasAssertions();
    tf.tidy(() => {
      const z = tf.tensor2d([
        [0.5, NaN, 1, 2],
        [1, 2, Infinity, 0],
        [-Infinity, 0, 1, 2],
        [3, 50, 50, 1],
        [3, 3, 3, 3],
        [1e30, 0, -1, 2],
        [0, -0, 1, -0],
      ]);
      const y = tf.tensor1d([1, 2, 0, 2, 3, 0, 1], 'int32');
      expect(bits(fused(z, y))).toEqual(bits(reference(z, y)));
    });
  });

  it('agrees with the cpu backend', async () => {
    expect.hasAssertions();
    await expectMatchesCpu(() => fused(tf.mul(randomTensor([64, 10], 2), 5) as tf.Tensor2D, labels(64, 10)), {
      native: [SOFTMAX_CROSS_ENTROPY, SOFTMAX_CROSS_ENTROPY_GRAD],
    });
  });

  it('labels that are not int32 or do not fit (through runKernel) fall back; the wasm backend has no such kernel', async () => {
    expect.hasAssertions();
    await expectFallbackThrows(
      () =>
        tf.engine().runKernel(SOFTMAX_CROSS_ENTROPY, { logits: randomTensor([3, 4], 1), labels: tf.tensor1d([0, 1, 2]) }, { reduction: 'none' }) as tf.Tensor,
      SOFTMAX_CROSS_ENTROPY,
      /labels not int32/,
      /has no MiaSoftmaxCrossEntropy kernel/,
    );
    await expectFallbackThrows(
      () =>
        tf
          .engine()
          .runKernel(SOFTMAX_CROSS_ENTROPY, { logits: randomTensor([3, 4], 1), labels: tf.tensor1d([0, 1], 'int32') }, { reduction: 'mean' }) as tf.Tensor,
      SOFTMAX_CROSS_ENTROPY,
      /shapes logits \[3,4\], labels \[2\]/,
      /has no MiaSoftmaxCrossEntropy kernel/,
    );
  });
});
