import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, expect, it } from 'vitest';
import { expectFallbackThrows, expectMatchesCpu, randomTensor, setupNative } from '../test-utils/backends';
import { describeNative } from '../test-utils/native-available';

type Shape4 = [number, number, number, number];
interface PoolCase {
  name: string;
  x: Shape4;
  filter: number | [number, number];
  strides: number | [number, number];
  pad: 'same' | 'valid' | number;
  rounding?: 'floor' | 'round' | 'ceil';
}

const cases: PoolCase[] = [
  { name: 'window 2 stride 2 valid, odd size', x: [2, 7, 7, 3], filter: 2, strides: 2, pad: 'valid' },
  { name: 'window 2 stride 2 same, odd size (asymmetric padding)', x: [2, 7, 7, 3], filter: 2, strides: 2, pad: 'same' },
  { name: 'window 3 stride 2 same (ResNet stem), batch 1', x: [1, 8, 8, 2], filter: 3, strides: 2, pad: 'same' },
  { name: 'window 3 stride 3 valid', x: [2, 9, 9, 3], filter: 3, strides: 3, pad: 'valid' },
  { name: 'window 3 stride 3 same on 10×10', x: [2, 10, 10, 3], filter: 3, strides: 3, pad: 'same' },
  { name: 'window 3 stride 1 same (overlapping windows)', x: [2, 6, 7, 2], filter: 3, strides: 1, pad: 'same' },
  { name: 'window 3 stride 1 valid', x: [1, 5, 5, 4], filter: 3, strides: 1, pad: 'valid' },
  { name: 'window 2×3, strides 1×2, rectangular input', x: [2, 6, 9, 2], filter: [2, 3], strides: [1, 2], pad: 'same' },
  { name: 'PyTorch-style padding 1, window 3 stride 2', x: [2, 7, 7, 3], filter: 3, strides: 2, pad: 1, rounding: 'floor' },
  { name: 'window 2 stride 2 valid, large enough for threads', x: [8, 16, 16, 32], filter: 2, strides: 2, pad: 'valid' },
];

const maxPool = (c: PoolCase, x: tf.Tensor): tf.Tensor => tf.maxPool(x as tf.Tensor4D, c.filter, c.strides, c.pad, c.rounding);
const avgPool = (c: PoolCase, x: tf.Tensor): tf.Tensor => tf.avgPool(x as tf.Tensor4D, c.filter, c.strides, c.pad, c.rounding);

/** Values on a coarse grid (many ties within a window), −∞ in the first rows of image 0 and NaN in a block of image 1. */
function awkward(shape: Shape4, seed: number): tf.Tensor {
  const [n, h, w, c] = shape;
  const v = randomTensor(shape, seed)
    .dataSync()
    .map((e) => Math.round(e * 2) / 2);
  for (let y = 0; y < Math.min(3, h); y++) for (let x = 0; x < w; x++) for (let k = 0; k < c; k++) v[(y * w + x) * c + k] = -Infinity;
  if (n > 1) for (let y = 0; y < Math.min(3, h); y++) for (let x = 0; x < Math.min(3, w); x++) for (let k = 0; k < c; k++) v[((h + y) * w + x) * c + k] = NaN;
  return tf.tensor4d(v, shape);
}

function grad(pool: (c: PoolCase, x: tf.Tensor) => tf.Tensor, c: PoolCase, x: () => tf.Tensor, seed: number) {
  return (): tf.Tensor => {
    const input = x();
    const y = pool(c, input);
    const dy = randomTensor(y.shape, seed);
    return tf.grad((a: tf.Tensor) => tf.sum(tf.mul(pool(c, a), dy)))(input);
  };
}

describeNative('native pooling kernels vs the cpu backend', () => {
  beforeAll(setupNative);

  for (const [i, c] of cases.entries()) {
    it(`MaxPool and AvgPool: ${c.name}`, async () => {
      expect.hasAssertions();
      await expectMatchesCpu(() => maxPool(c, randomTensor(c.x, 10 * i)), { native: ['MaxPool'] });
      await expectMatchesCpu(() => avgPool(c, randomTensor(c.x, 10 * i)), { native: ['AvgPool'] });
    });

    it(`MaxPoolGrad and AvgPoolGrad through tf.grad: ${c.name}`, async () => {
      expect.hasAssertions();
      await expectMatchesCpu(
        grad(maxPool, c, () => randomTensor(c.x, 10 * i + 1), 10 * i + 2),
        { native: ['MaxPool', 'MaxPoolGrad'] },
      );
      await expectMatchesCpu(
        grad(avgPool, c, () => randomTensor(c.x, 10 * i + 1), 10 * i + 3),
        { native: ['AvgPool', 'AvgPoolGrad'] },
      );
    });
  }

  for (const [i, c] of [cases[0]!, cases[2]!, cases[5]!, cases[8]!].entries()) {
    it(`MaxPool, MaxPoolGrad: ties, all −∞ windows and NaN windows: ${c.name}`, async () => {
      expect.hasAssertions();
      await expectMatchesCpu(() => maxPool(c, awkward(c.x, 50 + i)), { native: ['MaxPool'] });
      await expectMatchesCpu(
        grad(maxPool, c, () => awkward(c.x, 50 + i), 60 + i),
        { native: ['MaxPool', 'MaxPoolGrad'] },
      );
    });

    it(`AvgPool, AvgPoolGrad: ±∞ and NaN windows: ${c.name}`, async () => {
      expect.hasAssertions();
      await expectMatchesCpu(() => avgPool(c, awkward(c.x, 70 + i)), { native: ['AvgPool'] });
      await expectMatchesCpu(
        grad(avgPool, c, () => awkward(c.x, 70 + i), 80 + i),
        { native: ['AvgPool', 'AvgPoolGrad'] },
      );
    });
  }

  it('MaxPoolGrad: a constant input sends each window gradient to its first position', async () => {
    expect.hasAssertions();
    const c = cases[5]!;
    await expectMatchesCpu(
      grad(maxPool, c, () => tf.fill(c.x, 0.5), 90),
      { native: ['MaxPoolGrad'] },
    );
  });

  // The mean of an empty window is 0/0 = NaN on the cpu backend, and natively.
  it('windows entirely in the padding (ceil rounding)', async () => {
    expect.hasAssertions();
    const c: PoolCase = { name: 'ceil', x: [1, 5, 5, 2], filter: 2, strides: 2, pad: 1, rounding: 'ceil' };
    await expectMatchesCpu(() => maxPool(c, randomTensor(c.x, 95)), { native: ['MaxPool'] });
    await expectMatchesCpu(() => avgPool(c, randomTensor(c.x, 96)), { native: ['AvgPool'] });
    await expectMatchesCpu(
      grad(maxPool, c, () => randomTensor(c.x, 97), 98),
      { native: ['MaxPoolGrad'] },
    );
    await expectMatchesCpu(
      grad(avgPool, c, () => randomTensor(c.x, 97), 99),
      { native: ['AvgPoolGrad'] },
    );
  });

  it('MaxPool: int32 input goes to the wasm kernel (which rejects it as without native kernels; tf.avgPool casts to float32 itself)', async () => {
    expect.hasAssertions();
    const ints = (): tf.Tensor4D =>
      tf.tensor4d(
        Array.from({ length: 32 }, (_, k) => (k * 7) % 11),
        [2, 4, 4, 1],
        'int32',
      );
    await expectFallbackThrows(() => tf.maxPool(ints(), 2, 2, 'valid'), 'MaxPool', /not float32/, /only float32/);
  });
});
