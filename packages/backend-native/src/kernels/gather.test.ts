import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, expect, it } from 'vitest';
import { expectFallbackThrows, expectMatchesCpu, randomTensor, setupNative } from '../test-utils/backends';
import { describeNative } from '../test-utils/native-available';

describeNative('native GatherV2 vs the cpu backend', () => {
  beforeAll(setupNative);

  it('copies the rows of float32 and int32 tensors exactly, along any axis, for 1-D and 2-D indices', async () => {
    expect.hasAssertions();
    const cases: [number[], number[], number[], number][] = [
      [[20, 6], [3], [19, 0, 7], 0],
      [[5, 4, 3], [2, 2], [3, 3, 0, 1], 1],
      [[3, 2, 7], [5], [6, 0, 0, 3, 2], 2],
      // Large enough for the copy to run on 2 threads: a batch of 128 Purchase rows.
      [[1000, 600], [128], Array.from({ length: 128 }, (_, i) => (i * 389) % 1000), 0],
    ];
    for (const [shape, indexShape, index, axis] of cases) {
      for (const dtype of ['float32', 'int32'] as const) {
        await expectMatchesCpu(
          () => {
            const x = dtype === 'float32' ? randomTensor(shape, 1) : tf.cast(tf.mul(randomTensor(shape, 1), 1000), 'int32');
            return tf.gather(x, tf.tensor(index, indexShape, 'int32'), axis);
          },
          { native: ['GatherV2'] },
          0,
        );
      }
    }
  });

  it('an index out of range falls back to the wasm kernel, whose error reaches the caller, and leaves nothing behind', async () => {
    expect.hasAssertions();
    await expectFallbackThrows(
      () => tf.gather(randomTensor([4, 3], 1), tf.tensor1d([0, 4], 'int32')),
      'GatherV2',
      /an index out of range/,
      /GatherV2: the index value 4 is not in \[0, 3\]/,
    );
    await expectFallbackThrows(() => tf.gather(randomTensor([4, 3], 1), tf.tensor1d([-1], 'int32')), 'GatherV2', /an index out of range/, /index value -1/);
  });
});
