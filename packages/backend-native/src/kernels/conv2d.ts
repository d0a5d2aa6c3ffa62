import { CONV2D_BIAS } from '@mia/core';
import { backend_util, type NamedAttrMap, type TensorInfo } from '@tensorflow/tfjs-core';
import { allFloat32, sizeOf, view } from '../internals/heap-backend';
import { input, optionalInput, type NativeKernelArgs, type NativeKernelConfig, type NativeKernelContext } from '../internals/native-kernel';

type Shape4 = [number, number, number, number];

/** tfjs's convolution geometry (NHWC), for the kernels' attributes. */
export function convInfo(xShape: number[], filterShape: number[], attrs: NamedAttrMap, dilations: unknown): backend_util.Conv2DInfo {
  return backend_util.computeConv2DInfo(
    xShape as Shape4,
    filterShape as Shape4,
    attrs['strides'] as number | [number, number],
    (dilations ?? 1) as number | [number, number],
    attrs['pad'] as 'same' | 'valid' | number | backend_util.ExplicitPadding,
    attrs['dimRoundingMode'] as 'floor' | 'round' | 'ceil' | undefined,
    false,
    'channelsLast',
  );
}

/** The addon's dims array of a convolution. */
export function convDims(i: backend_util.Conv2DInfo): number[] {
  const p = i.padInfo;
  return [
    i.batchSize,
    i.inHeight,
    i.inWidth,
    i.inChannels,
    i.filterHeight,
    i.filterWidth,
    i.outChannels,
    i.outHeight,
    i.outWidth,
    i.strideHeight,
    i.strideWidth,
    p.top,
    p.left,
    p.bottom,
    p.right,
    i.dilationHeight,
    i.dilationWidth,
  ];
}

/** Why a convolution cannot run natively, or undefined. */
function unsupported(attrs: NamedAttrMap, ...infos: TensorInfo[]): string | undefined {
  const format = (attrs['dataFormat'] as string | undefined) ?? 'NHWC';
  if (format !== 'NHWC' && format !== 'channelsLast') return `dataFormat ${format}`;
  if (!allFloat32(...infos)) return 'not float32 or empty';
  if (infos.some((t) => t.shape.length !== 4)) return 'not rank 4';
  return undefined;
}

function forward(args: NativeKernelArgs, ctx: NativeKernelContext, fused: boolean): TensorInfo | TensorInfo[] {
  const { backend, attrs } = args;
  const x = input(args, 'x');
  const filter = input(args, 'filter');
  const why = unsupported(attrs, x, filter);
  if (why !== undefined) return ctx.fallback(why);
  const bias = fused ? optionalInput(args, 'bias') : undefined;
  const activation = fused ? ((attrs['activation'] as string | undefined) ?? 'linear') : 'linear';
  const info = convInfo(x.shape, filter.shape, attrs, attrs['dilations']);
  if (bias !== undefined && (bias.dtype !== 'float32' || sizeOf(bias.shape) !== info.outChannels || bias.shape.length !== 1)) {
    return ctx.fallback(`bias shape [${bias.shape.join(',')}]`);
  }
  if (fused && optionalInput(args, 'preluActivationWeights') !== undefined) return ctx.fallback('prelu activation');
  const epilogue = activation === 'linear' || activation === 'relu' ? undefined : activation;
  if (epilogue !== undefined && !['relu6', 'elu', 'sigmoid', 'leakyrelu'].includes(epilogue)) return ctx.fallback(`activation ${activation}`);
  const y = backend.makeOutput(info.outShape, 'float32');
  const biasView = bias === undefined ? null : view(backend, bias);
  const yView = view(backend, y);
  ctx.addon.conv2dForward(
    view(backend, x),
    view(backend, filter),
    biasView,
    yView,
    convDims(info),
    epilogue === undefined ? (activation as 'linear' | 'relu') : 'linear',
  );
  if (epilogue !== undefined) {
    ctx.addon.biasActivation(
      yView,
      sizeOf(info.outShape) / info.outChannels,
      info.outChannels,
      null,
      epilogue,
      (attrs['leakyreluAlpha'] as number | undefined) ?? 0.2,
    );
  }
  return y;
}

/** `Conv2D` through oneDNN (NHWC, any stride, padding and dilation). */
export const conv2DConfig: NativeKernelConfig = { kernelName: 'Conv2D', run: (args, ctx) => forward(args, ctx, false) };

/** `FusedConv2D` (bias, and linear / relu fused in oneDNN; relu6, elu, sigmoid, leakyrelu as a native epilogue; prelu falls back). */
export const fusedConv2DConfig: NativeKernelConfig = { kernelName: 'FusedConv2D', run: (args, ctx) => forward(args, ctx, true) };

/** `@mia/core`'s `conv2dBias`: the convolution with its bias added by oneDNN in the same pass. */
export const conv2dBiasConfig: NativeKernelConfig = { kernelName: CONV2D_BIAS, run: (args, ctx) => forward(args, ctx, true) };

/** `Conv2DBackpropInput`: the input gradient of a convolution. */
export const conv2DBackpropInputConfig: NativeKernelConfig = {
  kernelName: 'Conv2DBackpropInput',
  run(args, ctx) {
    const { backend, attrs } = args;
    const dy = input(args, 'dy');
    const filter = input(args, 'filter');
    const why = unsupported(attrs, dy, filter);
    if (why !== undefined) return ctx.fallback(why);
    const inputShape = attrs['inputShape'] as number[];
    if (sizeOf(inputShape) === 0) return ctx.fallback('empty input');
    const info = convInfo(inputShape, filter.shape, attrs, 1);
    const dx = backend.makeOutput(inputShape, 'float32');
    ctx.addon.conv2dBackwardData(view(backend, dy), view(backend, filter), view(backend, dx), convDims(info));
    return dx;
  },
};

/** `Conv2DBackpropFilter`: the filter gradient of a convolution. */
export const conv2DBackpropFilterConfig: NativeKernelConfig = {
  kernelName: 'Conv2DBackpropFilter',
  run(args, ctx) {
    const { backend, attrs } = args;
    const x = input(args, 'x');
    const dy = input(args, 'dy');
    const why = unsupported(attrs, x, dy);
    if (why !== undefined) return ctx.fallback(why);
    const filterShape = attrs['filterShape'] as number[];
    const info = convInfo(x.shape, filterShape, attrs, 1);
    const dw = backend.makeOutput(filterShape, 'float32');
    ctx.addon.conv2dBackwardWeights(view(backend, x), view(backend, dy), view(backend, dw), convDims(info));
    return dw;
  },
};
