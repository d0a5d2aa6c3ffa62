import { BATCH_NORM_RELU_TRAINING, BATCH_NORM_TRAINING, BATCH_NORM_TRAINING_GRAD } from '@mia/core';
import type { TensorInfo } from '@tensorflow/tfjs-core';
import { allFloat32, sizeOf, view } from '../internals/heap-backend';
import { input, optionalInput, type NativeKernelConfig } from '../internals/native-kernel';

const epsilonOf = (attrs: Record<string, unknown>): number => (attrs['varianceEpsilon'] as number | undefined) ?? 1e-5;
const channelsOf = (x: TensorInfo): number => x.shape[x.shape.length - 1] ?? 1;
const isChannelVector = (t: TensorInfo | undefined, channels: number): boolean => t === undefined || (t.shape.length === 1 && t.shape[0] === channels);

function trainingConfig(kernelName: string, relu: boolean): NativeKernelConfig {
  return {
    kernelName,
    run(args, ctx) {
      const { backend, attrs } = args;
      const x = input(args, 'x');
      const scale = optionalInput(args, 'scale');
      const offset = optionalInput(args, 'offset');
      const channels = channelsOf(x);
      if (!allFloat32(x, scale, offset) || x.shape.length < 2 || !isChannelVector(scale, channels) || !isChannelVector(offset, channels)) {
        return ctx.fallback('not float32, rank < 2 or statistics not per channel');
      }
      const y = backend.makeOutput(x.shape, 'float32');
      const mean = backend.makeOutput([channels], 'float32');
      const variance = backend.makeOutput([channels], 'float32');
      const v = (t: TensorInfo | undefined) => (t === undefined ? null : view(backend, t));
      ctx.addon.batchNormTrain(
        view(backend, x),
        v(scale),
        v(offset),
        view(backend, y),
        view(backend, mean),
        view(backend, variance),
        sizeOf(x.shape) / channels,
        channels,
        epsilonOf(attrs),
        relu,
      );
      return [y, mean, variance];
    },
  };
}

/**
 * `@mia/core`'s batch norm in training mode (`batchNormTraining`) as one kernel: per-channel mean and
 * biased variance (two passes, double accumulation), then the normalised output (one pass).
 */
export const batchNormTrainingConfig = trainingConfig(BATCH_NORM_TRAINING, false);

/**
 * The same with ReLU on the output (`batchNormTraining(…, { activation: 'relu' })`), in the same pass:
 * bit-equal to the batch norm kernel followed by `Relu`.
 */
export const batchNormReluTrainingConfig = trainingConfig(BATCH_NORM_RELU_TRAINING, true);

/**
 * The gradient of both through the batch statistics: two passes. With input `y` (the ReLU variant's
 * output), dy is multiplied by ReLU's gradient step(y) on the fly, bit-equal to the ReLU gradient
 * kernel followed by this one.
 */
export const batchNormTrainingGradConfig: NativeKernelConfig = {
  kernelName: BATCH_NORM_TRAINING_GRAD,
  run(args, ctx) {
    const { backend, attrs } = args;
    const dy = input(args, 'dy');
    const x = input(args, 'x');
    const mean = input(args, 'mean');
    const variance = input(args, 'variance');
    const scale = optionalInput(args, 'scale');
    const y = optionalInput(args, 'y');
    const channels = channelsOf(x);
    if (!allFloat32(dy, x, mean, variance, scale, y) || ![mean, variance, scale].every((t) => isChannelVector(t, channels))) {
      return ctx.fallback('not float32 or statistics not per channel');
    }
    if (y !== undefined && sizeOf(y.shape) !== sizeOf(x.shape)) return ctx.fallback('y does not match x');
    const dx = backend.makeOutput(x.shape, 'float32');
    const dScale = backend.makeOutput([channels], 'float32');
    const dOffset = backend.makeOutput([channels], 'float32');
    ctx.addon.batchNormTrainGrad(
      view(backend, dy),
      view(backend, x),
      view(backend, mean),
      view(backend, variance),
      scale === undefined ? null : view(backend, scale),
      view(backend, dx),
      view(backend, dScale),
      view(backend, dOffset),
      sizeOf(x.shape) / channels,
      channels,
      epsilonOf(attrs),
      y === undefined ? null : view(backend, y),
    );
    return [dx, dScale, dOffset];
  },
};
