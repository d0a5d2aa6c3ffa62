import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectClose, onBackend, randomValues, setupWasm } from '../test-utils/backends';

// [m, k, n, transposeA, transposeB]: both sides of the cost rule (direct vs swapped), odd sizes, rank 3 with batch 1.
const cases: [number, number, number, boolean, boolean][] = [
  [5, 7, 3, true, false],
  [5, 7, 3, false, true],
  [5, 7, 3, true, true],
  [1, 9, 4, false, true],
  [33, 2, 17, true, false],
  [3, 40, 2, true, true],
  [6, 5, 4, false, false],
];

describe('BatchMatMul', () => {
  beforeAll(setupWasm);

  for (const [i, [m, k, n, ta, tb]] of cases.entries()) {
    it(`matches the cpu backend: ${m}×${k}·${k}×${n}, transposeA ${ta}, transposeB ${tb}`, async () => {
      const aShape = ta ? [k, m] : [m, k];
      const bShape = tb ? [n, k] : [k, n];
      const a = randomValues(m * k, 50 + i);
      const b = randomValues(k * n, 60 + i);
      const run = () => tf.matMul(tf.tensor2d(a, aShape as [number, number]), tf.tensor2d(b, bShape as [number, number]), ta, tb);
      expectClose(await onBackend('wasm', run), await onBackend('cpu', run));
    });
  }

  it('keeps a leading batch dimension of 1 and handles real batches with the stock kernel', async () => {
    const a = randomValues(2 * 3 * 4, 70);
    const b = randomValues(2 * 5 * 4, 71);
    for (const batch of [1, 2]) {
      const run = () => tf.matMul(tf.tensor3d(a.slice(0, batch * 12), [batch, 3, 4]), tf.tensor3d(b.slice(0, batch * 20), [batch, 5, 4]), false, true);
      const got = await onBackend('wasm', run);
      expect(got.shape).toEqual([batch, 3, 5]);
      expectClose(got, await onBackend('cpu', run));
    }
  });
});
