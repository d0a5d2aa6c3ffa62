import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectClose, onBackend, randomValues, runOwnKernel, setupWasm } from '../test-utils/backends';
import { tileConfig } from './tile';

describe('Tile', () => {
  beforeAll(setupWasm);

  it('repeats a per-channel vector over leading axes (known answer)', async () => {
    // [[1,2]] tiled 3× along axis 0 is [[1,2],[1,2],[1,2]] by definition.
    const got = await runOwnKernel(tileConfig, { x: { shape: [1, 2], values: Float32Array.of(1, 2) } }, { reps: [3, 1] });
    expect(got.shape).toEqual([3, 2]);
    expect(Array.from(got.values)).toEqual([1, 2, 1, 2, 1, 2]);
  });

  it('matches the cpu backend on a batch-norm broadcast with odd sizes', async () => {
    const x = { shape: [1, 1, 1, 5], values: randomValues(5, 80) };
    const attrs = { reps: [3, 7, 5, 1] };
    const expected = await onBackend('cpu', () => tf.tile(tf.tensor(x.values, x.shape), attrs.reps));
    expectClose(await runOwnKernel(tileConfig, { x }, attrs), expected);
  });

  it('repeats over a run of size-1 axes in the middle (a global average pool gradient), odd sizes', async () => {
    const x = { shape: [3, 1, 1, 5], values: randomValues(15, 82) };
    const attrs = { reps: [1, 4, 7, 1] };
    const expected = await onBackend('cpu', () => tf.tile(tf.tensor(x.values, x.shape), attrs.reps));
    expectClose(await runOwnKernel(tileConfig, { x }, attrs), expected);
    // Known answer: [[a], [b]] of shape [2, 1, 1] tiled 3× on axis 1 is [a, a, a, b, b, b].
    const small = await runOwnKernel(tileConfig, { x: { shape: [2, 1, 1], values: Float32Array.of(1, 2) } }, { reps: [1, 3, 1] });
    expect(Array.from(small.values)).toEqual([1, 1, 1, 2, 2, 2]);
  });

  it('falls back to the stock kernel for other repetitions', async () => {
    const values = randomValues(6, 81);
    const run = () => tf.tile(tf.tensor2d(values, [2, 3]), [2, 3]);
    expectClose(await onBackend('wasm', run), await onBackend('cpu', run));
    await expect(runOwnKernel(tileConfig, { x: { shape: [2, 3], values } }, { reps: [2, 3] })).rejects.toThrow(/stock kernel/);
    // Two runs of size-1 axes with a repeated size-2 axis between them.
    await expect(runOwnKernel(tileConfig, { x: { shape: [1, 2, 1], values: Float32Array.of(1, 2) } }, { reps: [2, 1, 2] })).rejects.toThrow(/stock kernel/);
  });
});
