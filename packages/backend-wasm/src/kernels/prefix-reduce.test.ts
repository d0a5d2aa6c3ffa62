import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectClose, onBackend, randomValues, runOwnKernel, setupWasm } from '../test-utils/backends';
import { meanConfig } from './mean';
import { normalizeAxes } from './prefix-reduce';
import { sumConfig } from './sum';

describe('prefix-axis Sum and Mean', () => {
  beforeAll(setupWasm);

  it('normalizes axes', () => {
    expect(normalizeAxes([-2, 0, 0], 4)).toEqual([0, 2]);
    expect(normalizeAxes(null, 3)).toEqual([0, 1, 2]);
  });

  it('sums columns (known answer)', async () => {
    // Column sums of [[1,2],[3,4],[5,6]] are [9, 12]; means [3, 4] (hand calculation).
    const x = { shape: [3, 2], values: Float32Array.of(1, 2, 3, 4, 5, 6) };
    expect(Array.from((await runOwnKernel(sumConfig, { x }, { axis: [0], keepDims: false })).values)).toEqual([9, 12]);
    const mean = await runOwnKernel(meanConfig, { x }, { axis: 0, keepDims: true });
    expect(mean.shape).toEqual([1, 2]);
    expect(Array.from(mean.values)).toEqual([3, 4]);
  });

  it('reduces NHWC over N, H, W through per-image average pooling (known answer)', async () => {
    // x[n, y, x, c] = 1 … 16 in order, 2×2×2×2: channel 0 holds 1, 3, …, 15 (sum 64), channel 1 holds 2, 4, …, 16 (sum 72).
    const x = { shape: [2, 2, 2, 2], values: Float32Array.from({ length: 16 }, (_, i) => i + 1) };
    expect(Array.from((await runOwnKernel(sumConfig, { x }, { axis: [0, 1, 2], keepDims: false })).values)).toEqual([64, 72]);
    expect(Array.from((await runOwnKernel(meanConfig, { x }, { axis: [0, 1, 2], keepDims: false })).values)).toEqual([8, 9]);
  });

  for (const [name, config, op] of [
    ['Sum', sumConfig, tf.sum],
    ['Mean', meanConfig, tf.mean],
  ] as const) {
    it(`${name} matches the cpu backend over N,H,W of an odd NHWC tensor`, async () => {
      const x = { shape: [3, 5, 7, 4], values: randomValues(3 * 5 * 7 * 4, 90) };
      for (const keepDims of [false, true]) {
        const expected = await onBackend('cpu', () => op(tf.tensor(x.values, x.shape), [0, 1, 2], keepDims));
        expectClose(await runOwnKernel(config, { x }, { axis: [2, 0, 1], keepDims }), expected);
      }
    });

    it(`${name} matches the cpu backend on large maps (a 33×35 pooling window), 1×1 maps, and a two-axis prefix`, async () => {
      for (const [shape, axis] of [
        [
          [2, 33, 35, 3],
          [0, 1, 2],
        ],
        [
          [5, 1, 1, 6],
          [0, 1, 2],
        ],
        [
          [3, 5, 7, 4],
          [0, 1],
        ],
      ] as [number[], number[]][]) {
        const x = { shape, values: randomValues(tf.util.sizeFromShape(shape), 92) };
        const expected = await onBackend('cpu', () => op(tf.tensor(x.values, x.shape), axis));
        expectClose(await runOwnKernel(config, { x }, { axis, keepDims: false }), expected);
      }
    });

    it(`${name} falls back to the stock kernel for non-prefix axes`, async () => {
      const values = randomValues(24, 91);
      const run = () => op(tf.tensor3d(values, [2, 3, 4]), [1]);
      expectClose(await onBackend('wasm', run), await onBackend('cpu', run));
      await expect(runOwnKernel(config, { x: { shape: [2, 3, 4], values } }, { axis: [1], keepDims: false })).rejects.toThrow(/stock kernel/);
    });
  }
});
