import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, expect, it } from 'vitest';
import { expectMatchesCpu, randomTensor, setupNative } from '../test-utils/backends';
import { describeNative } from '../test-utils/native-available';

/** Statistics for x's channels: variance positive, scale and offset around 1 and 0. */
function stats(shape: number[], seed: number) {
  return {
    mean: randomTensor(shape, seed),
    variance: tf.add(tf.abs(randomTensor(shape, seed + 1)), 0.1),
    offset: randomTensor(shape, seed + 2),
    scale: tf.add(randomTensor(shape, seed + 3), 1),
  };
}

describeNative('native FusedBatchNorm vs the cpu backend', () => {
  beforeAll(setupNative);

  const cases: [string, number[], number[]][] = [
    ['NHWC with channel vectors', [2, 3, 4, 5], [5]],
    ['rank 2 (a dense layer)', [6, 7], [7]],
    ['batch 1, one channel', [1, 3, 3, 1], [1]],
    ['statistics of shape [1, 1, 1, C]', [2, 3, 4, 5], [1, 1, 1, 5]],
    ['scalar statistics', [2, 3, 4, 5], []],
    ['large enough for threads', [16, 8, 8, 32], [32]],
  ];

  for (const [i, [name, xShape, statShape]] of cases.entries()) {
    it(`${name}: with offset and scale, and without`, async () => {
      expect.hasAssertions();
      await expectMatchesCpu(
        () => {
          const s = stats(statShape, 10 * i);
          return tf.batchNorm(randomTensor(xShape, 10 * i + 5), s.mean, s.variance, s.offset, s.scale, 1e-3);
        },
        { native: ['FusedBatchNorm'] },
      );
      await expectMatchesCpu(
        () => {
          const s = stats(statShape, 10 * i);
          return tf.batchNorm(randomTensor(xShape, 10 * i + 5), s.mean, s.variance, undefined, undefined, 1e-5);
        },
        { native: ['FusedBatchNorm'] },
      );
    });
  }

  it('rank 3, offset without scale', async () => {
    expect.hasAssertions();
    await expectMatchesCpu(
      () =>
        tf.batchNorm(randomTensor([2, 3, 4], 70), randomTensor([4], 71), tf.add(tf.abs(randomTensor([4], 73)), 0.1), randomTensor([4], 72), undefined, 1e-3),
      { native: ['FusedBatchNorm'] },
    );
  });

  it('NaN and ±Inf in x stay where they are', async () => {
    expect.hasAssertions();
    await expectMatchesCpu(
      () =>
        tf.batchNorm(
          tf.tensor2d([NaN, 1, Infinity, -2, -Infinity, 0.5], [3, 2]),
          tf.tensor1d([0.5, -1]),
          tf.tensor1d([1, 2]),
          tf.tensor1d([0, 1]),
          tf.tensor1d([2, -1]),
          1e-3,
        ),
      {
        native: ['FusedBatchNorm'],
      },
    );
  });

  it('statistics over more than the channel axis fall back and are right', async () => {
    expect.hasAssertions();
    await expectMatchesCpu(
      () => {
        const s = stats([4, 5], 80);
        return tf.batchNorm(randomTensor([2, 3, 4, 5], 85), s.mean, s.variance, s.offset, s.scale, 1e-3);
      },
      { fallback: { FusedBatchNorm: /not per-channel/ } },
    );
  });
});
