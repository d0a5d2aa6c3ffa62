import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectClose, onBackend, randomValues, setupWasm } from '../test-utils/backends';
import type { WasmBackend } from '../internals/wasm-backend';
import { filterGradientIm2col, prefersIm2col } from './filter-gradient-im2col';

type Pad = 'same' | 'valid' | [[number, number], [number, number], [number, number], [number, number]];

// Cases: strides 1 and 2, same/valid/explicit padding, 3×3 and 2×3 filters, odd sizes, batch 1.
const cases: { x: [number, number, number, number]; f: [number, number, number, number]; stride: number; pad: Pad }[] = [
  { x: [1, 5, 5, 6], f: [3, 3, 6, 4], stride: 1, pad: 'same' },
  { x: [2, 7, 5, 3], f: [3, 3, 3, 5], stride: 2, pad: 'same' },
  { x: [1, 9, 8, 2], f: [3, 3, 2, 3], stride: 2, pad: 'valid' },
  { x: [3, 6, 7, 3], f: [2, 3, 3, 2], stride: 1, pad: 'valid' },
  { x: [2, 8, 8, 3], f: [3, 3, 3, 4], stride: 2, pad: [[0, 0], [1, 1], [1, 1], [0, 0]] },
];

/** dW on wasm through `filterGradientIm2col` directly and on cpu through the kernel. */
async function compare(c: (typeof cases)[number], seed: number, maxFloats?: number): Promise<void> {
  const info = tf.backend_util.computeConv2DInfo(c.x, c.f, c.stride, 1, c.pad);
  const dyShape = [c.x[0], info.outHeight, info.outWidth, c.f[3]];
  const xv = randomValues(tf.util.sizeFromShape(c.x), seed);
  const dyv = randomValues(tf.util.sizeFromShape(dyShape), seed + 1);
  const attrs = { filterShape: c.f, strides: [c.stride, c.stride], pad: c.pad, dataFormat: 'NHWC', dimRoundingMode: undefined };
  const expected = await onBackend('cpu', () => tf.engine().runKernel('Conv2DBackpropFilter', { x: tf.tensor(xv, c.x), dy: tf.tensor(dyv, dyShape) }, attrs as never) as tf.Tensor);
  await tf.setBackend('wasm');
  const backend = tf.backend() as unknown as WasmBackend & { readSync(id: object): Float32Array; numDataIds(): number };
  const x = tf.tensor(xv, c.x);
  const dy = tf.tensor(dyv, dyShape);
  const before = backend.numDataIds();
  const dw = filterGradientIm2col(backend, x, dy, info, c.f, maxFloats);
  const got = { shape: dw.shape, values: Float32Array.from(backend.readSync(dw.dataId)) };
  backend.disposeData(dw.dataId);
  expect(backend.numDataIds()).toBe(before); // every intermediate freed
  tf.dispose([x, dy]);
  expectClose(got, expected);
}

describe('filter gradient as an im2col GEMM', () => {
  beforeAll(setupWasm);

  for (const [i, c] of cases.entries()) {
    it(`matches the cpu backend: x ${c.x.join('×')}, filter ${c.f.join('×')}, stride ${c.stride}, ${JSON.stringify(c.pad)}`, async () => {
      await compare(c, 60 + 2 * i);
    });
  }

  it('sums image chunks when the im2col block is limited (3 images, 1 per chunk)', async () => {
    // 6×7 valid 2×3 → 5×5 pixels × 18 columns = 450 floats per image; a limit of 500 gives chunks of 1.
    await compare(cases[3]!, 80, 500);
  });

  it('is chosen for strided layers with ≥ 64 channels and 4×4 maps with ≥ 512, and then matches cpu through the kernel', async () => {
    const chosen = (x: [number, number, number, number], f: [number, number, number, number], stride: number): boolean =>
      prefersIm2col(tf.backend_util.computeConv2DInfo(x, f, stride, 1, 'same'), f);
    expect([
      chosen([2, 8, 8, 64], [3, 3, 64, 3], 2),
      chosen([2, 8, 8, 32], [3, 3, 32, 3], 2),
      chosen([2, 8, 8, 64], [1, 1, 64, 3], 2),
      chosen([2, 4, 4, 512], [3, 3, 512, 3], 1),
      chosen([2, 8, 8, 512], [3, 3, 512, 3], 1),
      chosen([2, 4, 4, 256], [3, 3, 256, 3], 1),
    ]).toEqual([true, false, false, true, false, false]);
    const x = { shape: [2, 7, 7, 64], values: randomValues(2 * 7 * 7 * 64, 70) };
    const dy = { shape: [2, 4, 4, 3], values: randomValues(2 * 4 * 4 * 3, 71) };
    const attrs = { filterShape: [3, 3, 64, 3], strides: [2, 2], pad: 'same', dataFormat: 'NHWC', dimRoundingMode: undefined };
    const run = () => tf.engine().runKernel('Conv2DBackpropFilter', { x: tf.tensor(x.values, x.shape), dy: tf.tensor(dy.values, dy.shape) }, attrs as never) as tf.Tensor;
    expectClose(await onBackend('wasm', run), await onBackend('cpu', run));
  });
});
