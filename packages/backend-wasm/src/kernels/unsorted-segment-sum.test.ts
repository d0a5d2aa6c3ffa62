import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectClose, onBackend, randomValues, runOwnKernel, setupWasm } from '../test-utils/backends';
import { segmentSumInto, unsortedSegmentSumConfig } from './unsorted-segment-sum';

describe('UnsortedSegmentSum', () => {
  beforeAll(setupWasm);

  it('sums rows per segment and drops out-of-range ids (known answer)', () => {
    // rows [1,2] [3,4] [5,6] [9,9] with ids 1, 0, 1, 7 → segment 0 = [3,4], segment 1 = [1+5, 2+6]; id 7 dropped.
    const out = new Float32Array(4);
    segmentSumInto([1, 2, 3, 4, 5, 6, 9, 9], [1, 0, 1, 7], 2, 2, out);
    expect(Array.from(out)).toEqual([3, 4, 6, 8]);
  });

  it('matches the cpu backend on odd sizes and 3-D values', async () => {
    const x = { shape: [7, 3, 5], values: randomValues(105, 90) };
    const ids = Int32Array.from([4, 0, 2, 4, 1, 0, 4]);
    const expected = await onBackend('cpu', () => tf.unsortedSegmentSum(tf.tensor(x.values, x.shape), tf.tensor1d(ids, 'int32'), 6));
    expectClose(
      await runOwnKernel(unsortedSegmentSumConfig, { x, segmentIds: { shape: [7], values: ids, dtype: 'int32' } as never }, { numSegments: 6 }),
      expected,
    );
  });

  it('makes the gradient of tf.gather train on wasm (CRL centres), equal to cpu, without leaks', async () => {
    const grad = () =>
      tf.tidy(() => {
        const centers = tf.tensor2d([
          [1, 2, 3],
          [4, 5, 6],
          [7, 8, 9],
        ]);
        const labels = tf.tensor1d([2, 0, 2, 2], 'int32');
        const weights = tf.tensor2d([
          [1, 1, 1],
          [2, 2, 2],
          [3, 3, 3],
          [4, 4, 4],
        ]);
        return tf.grad((c: tf.Tensor) => tf.sum(tf.mul(tf.gather(c, labels), weights)))(centers);
      });
    const expected = await onBackend('cpu', grad);
    const before = tf.memory().numTensors;
    const got = await onBackend('wasm', grad);
    // Class 0 gets row 2 (weights 2), class 2 gets rows 1+3+4 = 8, class 1 nothing.
    expect(Array.from(got.values)).toEqual([2, 2, 2, 0, 0, 0, 8, 8, 8]);
    expectClose(got, expected);
    expect(tf.memory().numTensors).toBe(before);
  });
});
