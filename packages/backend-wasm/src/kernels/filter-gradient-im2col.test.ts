import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectFilterGradient, setupWasm } from '../test-utils/backends';
import { filterGradientIm2col } from './filter-gradient-im2col';

type Pad = 'same' | 'valid' | [[number, number], [number, number], [number, number], [number, number]];

// Cases: strides 1 and 2, same/valid/explicit padding, 3×3, 2×3 and 1×1 filters, odd sizes, batch 1.
const cases: { x: [number, number, number, number]; f: [number, number, number, number]; stride: number; pad: Pad }[] = [
  { x: [1, 5, 5, 6], f: [3, 3, 6, 4], stride: 1, pad: 'same' },
  { x: [2, 7, 5, 3], f: [3, 3, 3, 5], stride: 2, pad: 'same' },
  { x: [1, 9, 8, 2], f: [3, 3, 2, 3], stride: 2, pad: 'valid' },
  { x: [3, 6, 7, 3], f: [2, 3, 3, 2], stride: 1, pad: 'valid' },
  { x: [2, 8, 8, 3], f: [3, 3, 3, 4], stride: 2, pad: [[0, 0], [1, 1], [1, 1], [0, 0]] },
  // 1×1 (how Conv2DBackpropFilter uses it): P is the input itself.
  { x: [3, 5, 6, 4], f: [1, 1, 4, 5], stride: 1, pad: 'valid' },
];

/** dW on wasm through `filterGradientIm2col` directly, against cpu through the kernel. */
async function compare(c: (typeof cases)[number], seed: number, maxFloats?: number): Promise<void> {
  await expectFilterGradient((backend, x, dy, info) => filterGradientIm2col(backend, x, dy, info, c.f, maxFloats), c, seed);
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
});
