import { allFloat32, sizeOf, view } from '../internals/heap-backend';
import { input, optionalInput, type NativeKernelConfig } from '../internals/native-kernel';

/**
 * `FusedBatchNorm` (`tf.batchNorm`): y = (x − mean)·scale/√(variance + ε) + offset over the last axis,
 * as one per-channel multiply-add; mean, variance, offset and scale of 1 or `channels` values.
 */
export const fusedBatchNormConfig: NativeKernelConfig = {
  kernelName: 'FusedBatchNorm',
  run(args, ctx) {
    const { backend, attrs } = args;
    const x = input(args, 'x');
    const mean = input(args, 'mean');
    const variance = input(args, 'variance');
    const offset = optionalInput(args, 'offset');
    const scale = optionalInput(args, 'scale');
    if (!allFloat32(x, mean, variance, offset, scale)) return ctx.fallback('not float32 or empty');
    const channels = x.shape[x.shape.length - 1] ?? 1;
    const fits = [mean, variance, offset, scale].every(
      (t) =>
        t === undefined || ((sizeOf(t.shape) === 1 || sizeOf(t.shape) === channels) && (t.shape.length <= 1 || t.shape.slice(0, -1).every((d) => d === 1))),
    );
    if (x.shape.length < 1 || !fits) return ctx.fallback('statistics are not per-channel vectors');
    const y = backend.makeOutput(x.shape, 'float32');
    const v = (t: typeof offset) => (t === undefined ? null : view(backend, t));
    ctx.addon.batchNorm(
      view(backend, x),
      view(backend, mean),
      view(backend, variance),
      v(offset),
      v(scale),
      view(backend, y),
      sizeOf(x.shape) / channels,
      channels,
      (attrs['varianceEpsilon'] as number | undefined) ?? 0.001,
    );
    return y;
  },
};
