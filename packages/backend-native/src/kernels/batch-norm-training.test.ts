import { BATCH_NORM_RELU_TRAINING, BATCH_NORM_TRAINING, BATCH_NORM_TRAINING_GRAD, batchNormTraining } from '@mia/core';
import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, expect, it } from 'vitest';
import { nativeKernelStats } from '../kernel-stats';
import { expectClose, expectFallbackThrows, expectMatchesCpu, onCpu, onNative, randomTensor, setupNative } from '../test-utils/backends';
import { RELU_GRAD } from './activation-gradients';
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

  it('gradient in x when the loss uses y and only one of the statistics', async () => {
    expect.hasAssertions();
    for (const stat of ['mean', 'variance'] as const) {
      await expectMatchesCpu(
        () =>
          tf.grad((a: tf.Tensor) => {
            const r = batchNormTraining(a, noScale(5), noOffset(5), 1e-5);
            return tf.add(tf.sum(tf.mul(r.y, randomTensor([2, 3, 4, 5], 92))), tf.sum(tf.mul(r[stat], randomTensor([5], 93)))) as tf.Scalar;
          })(tf.add(randomTensor([2, 3, 4, 5], 94), 0.5)),
        { native: [BATCH_NORM_TRAINING, `${BATCH_NORM_TRAINING}Grad`] },
      );
    }
  });

  it('when only y feeds the loss, the gradient adds no terms of the statistics (no Add or Sub over x)', async () => {
    await tf.setBackend('wasm'); // the native kernels are registered on it
    const x = tf.add(randomTensor([4, 6, 6, 8], 95), 0.3);
    const w = randomTensor([4, 6, 6, 8], 96);
    const v = randomTensor([8], 97);
    // Add and Sub kernels with an output the shape of x, in one gradient of loss(x).
    const passes = async (loss: (a: tf.Tensor) => tf.Scalar): Promise<string[]> => {
      const info = await tf.profile(() => tf.dispose(tf.grad(loss)(x)));
      return info.kernels.filter((k) => (k.name === 'Add' || k.name === 'Sub') && k.outputShapes[0]?.length === 4).map((k) => k.name);
    };
    expect(await passes((a) => tf.sum(tf.mul(batchNormTraining(a, undefined, undefined, 1e-5).y, w)))).toEqual([]);
    // The same loss plus a term in the variance: its gradient is added (x − mean, then the sum).
    const withVariance = await passes((a) => {
      const r = batchNormTraining(a, undefined, undefined, 1e-5);
      return tf.add(tf.sum(tf.mul(r.y, w)), tf.sum(tf.mul(r.variance, v))) as tf.Scalar;
    });
    expect(withVariance.sort()).toEqual(['Add', 'Sub']);
    tf.dispose([x, w, v]);
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

describeNative('batch norm + ReLU in one kernel (activation: relu) vs batch norm then ReLU', () => {
  beforeAll(setupNative);

  for (const [i, [name, shape]] of shapes.entries()) {
    const c = shape[shape.length - 1]!;
    /** y and the gradients in x, scale and offset of Σ dy·relu(batchNorm(x)), fused or as two ops. */
    const step = (fused: boolean) => (): tf.Tensor[] => {
      const x = tf.add(tf.mul(randomTensor(shape, 10 * i), 3), 0.7);
      const scale = tf.add(randomTensor([c], 10 * i + 1), 1.2);
      const offset = randomTensor([c], 10 * i + 2);
      const dy = randomTensor(shape, 10 * i + 3);
      const f = (a: tf.Tensor, s: tf.Tensor, o: tf.Tensor): tf.Tensor =>
        fused ? batchNormTraining(a, s, o, 1e-5, { activation: 'relu' }).y : tf.relu(batchNormTraining(a, s, o, 1e-5).y);
      return [f(x, scale, offset), ...tf.grads((a: tf.Tensor, s: tf.Tensor, o: tf.Tensor) => tf.sum(tf.mul(f(a, s, o), dy)))([x, scale, offset])];
    };

    it(`${name}: output and gradients bit-equal to the two kernels, close to the cpu composite, nothing left behind`, async () => {
      expect.hasAssertions();
      const fused = await onNative(step(true), { native: [BATCH_NORM_RELU_TRAINING, BATCH_NORM_TRAINING_GRAD] });
      const fusedStats = nativeKernelStats();
      expect(fusedStats['Relu']?.native ?? 0, 'no separate Relu').toBe(0);
      expect(fusedStats[RELU_GRAD]?.native ?? 0, 'no separate ReLU gradient').toBe(0);
      const unfused = await onNative(step(false), { native: [BATCH_NORM_TRAINING, BATCH_NORM_TRAINING_GRAD, 'Relu', RELU_GRAD] });
      const cpu = await onCpu(step(true));
      expect(fused.length).toBe(4);
      fused.forEach((f, k) => {
        expect(f.shape).toEqual(unfused[k]!.shape);
        const bits = (v: Float32Array | Int32Array) => Array.from(new Uint32Array(Float32Array.from(v).buffer));
        expect(bits(f.values), `output ${k}: fused vs batch norm then ReLU`).toEqual(bits(unfused[k]!.values));
        expectClose(f, cpu[k]!, 1e-4);
      });
      // ReLU zeroed part of the output (the mask matters in this test).
      expect(fused[0]!.values.some((v) => v === 0)).toBe(true);
    });
  }
});
