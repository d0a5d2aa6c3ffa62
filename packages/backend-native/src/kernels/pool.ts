import { backend_util, type NamedAttrMap, type TensorInfo } from '@tensorflow/tfjs-core';
import { allFloat32, view } from '../internals/heap-backend';
import { input, type NativeKernelArgs, type NativeKernelConfig, type NativeKernelContext } from '../internals/native-kernel';

function poolInfo(xShape: number[], attrs: NamedAttrMap): backend_util.Conv2DInfo {
  return backend_util.computePool2DInfo(
    xShape as [number, number, number, number],
    attrs['filterSize'] as number | [number, number],
    attrs['strides'] as number | [number, number],
    1,
    attrs['pad'] as 'same' | 'valid' | number | backend_util.ExplicitPadding,
    attrs['dimRoundingMode'] as 'floor' | 'round' | 'ceil' | undefined,
  );
}

function poolDims(i: backend_util.Conv2DInfo): number[] {
  return [
    i.batchSize,
    i.inHeight,
    i.inWidth,
    i.inChannels,
    i.filterHeight,
    i.filterWidth,
    i.strideHeight,
    i.strideWidth,
    i.padInfo.top,
    i.padInfo.left,
    i.outHeight,
    i.outWidth,
  ];
}

/**
 * The addon's dims of a pooling gradient, with the output size taken from dy: tfjs's pooling gradients
 * drop `dimRoundingMode`, so the geometry recomputed from the attributes can lack an output row or
 * column that dy has (ceil rounding). Undefined when dy's batch or channels differ from x's.
 */
function gradDims(xShape: number[], dyShape: number[], attrs: NamedAttrMap): number[] | undefined {
  if (dyShape[0] !== xShape[0] || dyShape[3] !== xShape[3]) return undefined;
  const dims = poolDims(poolInfo(xShape, attrs));
  dims[10] = dyShape[1]!;
  dims[11] = dyShape[2]!;
  return dims;
}

function check(_ctx: NativeKernelContext, ...infos: TensorInfo[]): string | undefined {
  if (!allFloat32(...infos)) return 'not float32 or empty';
  if (infos.some((t) => t.shape.length !== 4)) return 'not rank 4';
  return undefined;
}

function forward(args: NativeKernelArgs, ctx: NativeKernelContext, mode: 'max' | 'avg'): TensorInfo | TensorInfo[] {
  const { backend, attrs } = args;
  const x = input(args, 'x');
  const why = check(ctx, x);
  if (why !== undefined) return ctx.fallback(why);
  const info = poolInfo(x.shape, attrs);
  if (info.outHeight < 1 || info.outWidth < 1) return ctx.fallback('empty output');
  const y = backend.makeOutput(info.outShape, 'float32');
  ctx.addon.pool2d(mode, view(backend, x), view(backend, y), poolDims(info));
  return y;
}

/** `MaxPool` (NHWC; padding and NaN never win, as tfjs's cpu backend). */
export const maxPoolConfig: NativeKernelConfig = { kernelName: 'MaxPool', run: (args, ctx) => forward(args, ctx, 'max') };

/** `AvgPool` (NHWC; the mean of each window's in-bounds values, as tfjs's cpu backend). */
export const avgPoolConfig: NativeKernelConfig = { kernelName: 'AvgPool', run: (args, ctx) => forward(args, ctx, 'avg') };

/** `MaxPoolGrad`: each window's gradient goes to the first maximum of the window's input (row-major order). */
export const maxPoolGradConfig: NativeKernelConfig = {
  kernelName: 'MaxPoolGrad',
  run(args, ctx) {
    const { backend, attrs } = args;
    const dy = input(args, 'dy');
    const x = input(args, 'input');
    const why = check(ctx, dy, x);
    if (why !== undefined) return ctx.fallback(why);
    const dims = gradDims(x.shape, dy.shape, attrs);
    if (dims === undefined) return ctx.fallback('dy does not match x');
    const dx = backend.makeOutput(x.shape, 'float32');
    ctx.addon.maxPoolGrad(view(backend, dy), view(backend, x), view(backend, dx), dims);
    return dx;
  },
};

/** `AvgPoolGrad`: dy / (window area) spread over each window's in-bounds positions (tfjs's cpu backend). */
export const avgPoolGradConfig: NativeKernelConfig = {
  kernelName: 'AvgPoolGrad',
  run(args, ctx) {
    const { backend, attrs } = args;
    const dy = input(args, 'dy');
    const x = input(args, 'input');
    const why = check(ctx, dy, x);
    if (why !== undefined) return ctx.fallback(why);
    const dims = gradDims(x.shape, dy.shape, attrs);
    if (dims === undefined) return ctx.fallback('dy does not match x');
    const dx = backend.makeOutput(x.shape, 'float32');
    ctx.addon.avgPoolGrad(view(backend, dy), view(backend, dx), dims);
    return dx;
  },
};
