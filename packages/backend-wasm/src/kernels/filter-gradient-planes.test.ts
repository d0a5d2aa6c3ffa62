import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectFilterGradient, setupWasm } from '../test-utils/backends';
import type { WasmBackend } from '../internals/wasm-backend';
import { filterGradientPlanes, fitsPlanes } from './filter-gradient-planes';

type Pad = 'same' | 'valid' | [[number, number], [number, number], [number, number], [number, number]];

// Stride-1 size-preserving cases (shifted-plane copies): 3×3 pad 1, asymmetric 'same' pads of even
// filters (2×2: 0/1, 4×4: 1/2), 1×1, non-square filters and maps, odd sizes, batch 1. Then the gathered
// rows: strides 2 and 3, 'valid', PyTorch-style explicit padding at stride 2, a stride-1 'valid' layer.
const cases: { x: [number, number, number, number]; f: [number, number, number, number]; pad: Pad; stride?: number; chunk?: number }[] = [
  { x: [1, 5, 5, 6], f: [3, 3, 6, 4], pad: 'same' },
  {
    x: [3, 7, 5, 3],
    f: [3, 3, 3, 5],
    pad: [
      [0, 0],
      [1, 1],
      [1, 1],
      [0, 0],
    ],
  },
  { x: [2, 6, 7, 2], f: [2, 2, 2, 3], pad: 'same' },
  { x: [2, 9, 8, 3], f: [4, 4, 3, 2], pad: 'same' },
  { x: [2, 5, 9, 4], f: [3, 1, 4, 3], pad: 'same' },
  { x: [2, 5, 5, 3], f: [1, 1, 3, 4], pad: 'valid' },
  // Chunks of 2 images (chunk 60 pixels / 25 per image) plus a remainder of 1: every chunk's shifted
  // planes must stay inside their own images and channel.
  { x: [5, 5, 5, 3], f: [3, 3, 3, 2], pad: 'same', chunk: 60 },
  // One image per chunk, single channel: shifted copies reach before the first and past the last element.
  { x: [3, 4, 6, 1], f: [3, 3, 1, 2], pad: 'same', chunk: 1 },
  { x: [2, 7, 5, 3], f: [3, 3, 3, 5], pad: 'same', stride: 2 },
  { x: [1, 9, 8, 2], f: [3, 3, 2, 3], pad: 'valid', stride: 2 },
  {
    x: [2, 8, 8, 3],
    f: [3, 3, 3, 4],
    pad: [
      [0, 0],
      [1, 1],
      [1, 1],
      [0, 0],
    ],
    stride: 2,
  },
  { x: [2, 10, 11, 2], f: [4, 3, 2, 3], pad: 'same', stride: 3 },
  { x: [3, 6, 7, 3], f: [2, 3, 3, 2], pad: 'valid', chunk: 25 },
  { x: [4, 7, 7, 2], f: [3, 3, 2, 2], pad: 'same', stride: 2, chunk: 20 },
];

describe('filter gradient from shifted input planes', () => {
  beforeAll(setupWasm);

  for (const [i, c] of cases.entries()) {
    it(`matches the cpu backend: x ${c.x.join('×')}, filter ${c.f.join('×')}, stride ${c.stride ?? 1}, ${JSON.stringify(c.pad)}${c.chunk ? `, ${c.chunk} pixels per chunk` : ''}`, async () => {
      const stride = c.stride ?? 1;
      const info = tf.backend_util.computeConv2DInfo(c.x, c.f, stride, 1, c.pad);
      expect(fitsPlanes(info)).toBe(true);
      await expectFilterGradient((backend, x, dy, convInfo) => filterGradientPlanes(backend, x, dy, convInfo, c.f, c.chunk), { ...c, stride }, 90 + 2 * i);
    });
  }

  it('refuses dilated convolutions with a clear error', async () => {
    await tf.setBackend('wasm');
    const backend = tf.backend() as unknown as WasmBackend;
    const info = tf.backend_util.computeConv2DInfo([1, 6, 6, 2], [3, 3, 2, 2], 1, 2, 'same');
    expect(fitsPlanes(info)).toBe(false);
    const x = tf.zeros([1, 6, 6, 2]);
    const dy = tf.zeros([1, 6, 6, 2]);
    expect(() => filterGradientPlanes(backend, x, dy, info, [3, 3, 2, 2])).toThrow(/needs dilation 1, got 2×2/);
    tf.dispose([x, dy]);
  });
});
