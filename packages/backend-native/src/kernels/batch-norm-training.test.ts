import { BATCH_NORM_TRAINING, batchNormTraining } from '@mia/core';
import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, expect, it } from 'vitest';
import { expectFallbackThrows, expectMatchesCpu, randomTensor, setupNative } from '../test-utils/backends';
import { describeNative } from '../test-utils/native-available';

// On cpu, batchNormTraining is the composite (tf.moments then tf.batchNorm, gradients by autodiff);
// on the native backend it is the fused kernel pair. Each test compares the two.

/**
 * "No scale" and "no offset": undefined natively; ones and zeros on cpu, where tf.batchNorm's own
 * gradient (tfjs 4.22) fails without them (it records and saves the absent inputs).
 */
const noScale = (channels: number): tf.Tensor | undefined => (tf.getBackend() === 'cpu' ? tf.ones([channels]) : undefined);
const noOffset = (channels: number): tf.Tensor | undefined => (tf.getBackend() === 'cpu' ? tf.zeros([channels]) : undefined);

const shapes: [string, number[]][] = [
  ['rank 2 [6, 7]', [6, 7]],
  ['NHWC [2, 3, 4, 5]', [2, 3, 4, 5]],
  ['batch 1 [1, 3, 3, 4]', [1, 3, 3, 4]],
  ['rank 3 [3, 5, 2]', [3, 5, 2]],
  ['large enough for threads [8, 8, 8, 64]', [8, 8, 8, 64]],
];

describeNative('native batchNormTraining vs the composite on the cpu backend', () => {
  beforeAll(setupNative);

  for (const [i, [name, shape]] of shapes.entries()) {
    const c = shape[shape.length - 1]!;
    // Shifted, scaled inputs: the statistics are not 0 and 1 already.
    const x = (): tf.Tensor => tf.add(tf.mul(randomTensor(shape, 10 * i), 3), 0.7);
    const scale = (): tf.Tensor => tf.add(randomTensor([c], 10 * i + 1), 1.2);
    const offset = (): tf.Tensor => randomTensor([c], 10 * i + 2);

    it(`${name}: y, mean and variance, with scale and offset and without`, async () => {
      expect.hasAssertions();
      await expectMatchesCpu(
        () => {
          const r = batchNormTraining(x(), scale(), offset(), 1e-5);
          return [r.y, r.mean, r.variance];
        },
        { native: [BATCH_NORM_TRAINING] },
      );
      await expectMatchesCpu(
        () => {
          const r = batchNormTraining(x(), undefined, undefined, 1e-3);
          return [r.y, r.mean, r.variance];
        },
        { native: [BATCH_NORM_TRAINING] },
      );
    });

    it(`${name}: gradients in x, scale and offset through the statistics`, async () => {
      expect.hasAssertions();
      const dyShape = shape;
      await expectMatchesCpu(
        () =>
          tf.grads((a: tf.Tensor, s: tf.Tensor, o: tf.Tensor) => tf.sum(tf.mul(batchNormTraining(a, s, o, 1e-5).y, randomTensor(dyShape, 10 * i + 3))))([
            x(),
            scale(),
            offset(),
          ]),
        { native: [BATCH_NORM_TRAINING, `${BATCH_NORM_TRAINING}Grad`] },
      );
    });

    it(`${name}: gradient in x when the loss uses the returned mean and variance too`, async () => {
      expect.hasAssertions();
      const loss = (a: tf.Tensor): tf.Scalar => {
        const r = batchNormTraining(a, scale(), offset(), 1e-5);
        return tf.addN([
          tf.sum(tf.mul(r.y, randomTensor(shape, 10 * i + 4))),
          tf.sum(tf.mul(r.mean, randomTensor([c], 10 * i + 5))),
          tf.sum(tf.mul(r.variance, randomTensor([c], 10 * i + 6))),
        ]) as tf.Scalar;
      };
      await expectMatchesCpu(() => tf.grad(loss)(x()), { native: [BATCH_NORM_TRAINING, `${BATCH_NORM_TRAINING}Grad`] });
      // Only the statistics in the loss (dy is zero).
      await expectMatchesCpu(
        () =>
          tf.grad((a: tf.Tensor) => {
            const r = batchNormTraining(a, noScale(c), noOffset(c), 1e-5);
            return tf.add(tf.sum(tf.square(r.mean)), tf.sum(r.variance)) as tf.Scalar;
          })(x()),
        { native: [BATCH_NORM_TRAINING, `${BATCH_NORM_TRAINING}Grad`] },
      );
    });
  }

  it('gradient in x without scale and offset', async () => {
    expect.hasAssertions();
    await expectMatchesCpu(
      () =>
        tf.grad((a: tf.Tensor) => tf.sum(tf.mul(batchNormTraining(a, noScale(5), noOffset(5), 1e-5).y, randomTensor([2, 3, 4, 5], 90))))(
          randomTensor([2, 3, 4, 5], 91),
        ),
      { native: [BATCH_NORM_TRAINING, `${BATCH_NORM_TRAINING}Grad`] },
    );
  });

  it('a scale that is not a channel vector (through runKernel) falls back; the wasm backend has no such kernel', async () => {
    expect.hasAssertions();
    await expectFallbackThrows(
      () => tf.engine().runKernel(BATCH_NORM_TRAINING, { x: randomTensor([2, 3], 95), scale: randomTensor([1], 96) }, { varianceEpsilon: 1e-5 }) as tf.Tensor[],
      BATCH_NORM_TRAINING,
      /statistics not per channel/,
      /has no MiaBatchNormTraining kernel/,
    );
  });
});
