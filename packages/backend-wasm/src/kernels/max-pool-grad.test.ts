import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectClose, onBackend, randomValues, runOwnKernel, setupWasm } from '../test-utils/backends';
import { maxPoolGradConfig } from './max-pool-grad';

describe('MaxPoolGrad', () => {
  beforeAll(setupWasm);

  it('routes dy to the window maximum (known answer; the stock wasm kernel loses the all-negative second window)', async () => {
    // x = sin(7.77·i + 1), 1×4×4×1, 2×2 stride 2. Window values (hand-computed):
    // [0.841, 0.609, 0.616, 0.836] → max at flat index 0; [-0.739, -0.733, -0.476, -0.916] → 6;
    // [0.322, 0.970, -0.008, 0.996] → 13; [-0.159, -0.997, 0.175, -0.966] → 14. So dx = dy there.
    const x = { shape: [1, 4, 4, 1], values: Float32Array.from({ length: 16 }, (_, i) => Math.sin(i * 7.77 + 1)) };
    const dy = { shape: [1, 2, 2, 1], values: Float32Array.of(1, 2, 3, 4) };
    const got = await runOwnKernel(maxPoolGradConfig, { dy, input: x, output: x }, { filterSize: 2, strides: 2, pad: 'valid' });
    expect(Array.from(got.values)).toEqual([1, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 3, 4, 0]);
  });

  it('gives the first element of an all-NaN or all −∞ window the gradient (windows tiling the input, and windows in padding)', async () => {
    // 1×4×4×1: windows of 2×2 stride 2 tiling the input; then 2×2 stride 2 'same' on 1×4×5×1 (a padded column).
    const nan = Number.NaN;
    const x = { shape: [1, 4, 4, 1], values: Float32Array.of(nan, nan, -Infinity, -Infinity, nan, nan, -Infinity, -Infinity, 1, 2, 3, 4, 5, 6, 7, 8) };
    const dy = { shape: [1, 2, 2, 1], values: Float32Array.of(1, 2, 3, 4) };
    const got = await runOwnKernel(maxPoolGradConfig, { dy, input: x, output: x }, { filterSize: 2, strides: 2, pad: 'valid' });
    expect(Array.from(got.values)).toEqual([1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 4]);
    const x5 = {
      shape: [1, 4, 5, 1],
      values: Float32Array.of(nan, nan, -Infinity, -Infinity, 0, nan, nan, -Infinity, -Infinity, 0, 1, 2, 3, 4, 0, 5, 6, 7, 8, 0),
    };
    const dy5 = { shape: [1, 2, 3, 1], values: Float32Array.of(1, 2, 9, 3, 4, 9) };
    const general = await runOwnKernel(maxPoolGradConfig, { dy: dy5, input: x5, output: x5 }, { filterSize: 2, strides: 2, pad: 'same' });
    expect(Array.from(general.values)).toEqual([1, 0, 2, 0, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9, 0, 3, 0, 4, 0]);
  });

  for (const [i, c] of [
    { x: [2, 5, 5, 3], f: 2, s: 1, pad: 'valid' },
    { x: [1, 7, 6, 4], f: 2, s: 2, pad: 'same' },
    { x: [2, 7, 7, 2], f: 3, s: 2, pad: 'same' },
    { x: [1, 8, 8, 3], f: 3, s: 2, pad: 'valid' },
    // Windows that tile the input: 2×2 stride 2, 3×3 stride 3.
    { x: [3, 6, 8, 5], f: 2, s: 2, pad: 'valid' },
    { x: [2, 6, 9, 2], f: 3, s: 3, pad: 'valid' },
  ].entries()) {
    it(`matches the cpu backend: x ${c.x.join('×')}, ${c.f}×${c.f} stride ${c.s}, ${c.pad}`, async () => {
      const values = randomValues(tf.util.sizeFromShape(c.x), 110 + i);
      const run = () => {
        const x = tf.tensor4d(values, c.x as [number, number, number, number]);
        return tf.grad((t: tf.Tensor) => {
          const y = tf.maxPool(t as tf.Tensor4D, c.f, c.s, c.pad as 'same' | 'valid');
          return tf.sum(tf.mul(y, tf.tensor(randomValues(y.size, 120 + i), y.shape)));
        })(x);
      };
      expectClose(await onBackend('wasm', run), await onBackend('cpu', run));
    });
  }
});
