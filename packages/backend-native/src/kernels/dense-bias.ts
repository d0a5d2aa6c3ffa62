import { DENSE_BIAS, DENSE_BIAS_GRAD_BIAS, DENSE_BIAS_GRAD_INPUT, DENSE_BIAS_GRAD_WEIGHT } from '@mia/core';
import type { TensorInfo } from '@tensorflow/tfjs-core';
import { allFloat32, view } from '../internals/heap-backend';
import { input, type NativeKernelArgs, type NativeKernelConfig, type NativeKernelContext } from '../internals/native-kernel';

const ACTIVATIONS = new Set(['linear', 'relu', 'tanh']);

/** The layer's sizes from `x`-like `[rows, in]` and `weight` `[in, out]`, or the reason they do not fit. */
function sizes(rowsIn: TensorInfo, weight: TensorInfo): { rows: number; inFeatures: number; outFeatures: number } | string {
  if (rowsIn.shape.length !== 2 || weight.shape.length !== 2 || rowsIn.shape[1] !== weight.shape[0]) {
    return `shapes [${rowsIn.shape.join(',')}] and [${weight.shape.join(',')}]`;
  }
  return { rows: rowsIn.shape[0]!, inFeatures: weight.shape[0]!, outFeatures: weight.shape[1]! };
}

function activationOf(args: NativeKernelArgs): string | undefined {
  const activation = args.attrs['activation'] ?? 'linear';
  return typeof activation === 'string' && ACTIVATIONS.has(activation) ? activation : undefined;
}

/** `y` of `[rows, out]` (the layer's output, which the gradients read the activation's derivative from). */
const fitsOutput = (y: TensorInfo, rows: number, out: number): boolean => y.shape.length === 2 && y.shape[0] === rows && y.shape[1] === out;

function forward(args: NativeKernelArgs, ctx: NativeKernelContext): TensorInfo {
  const { backend } = args;
  const [x, weight, bias] = [input(args, 'x'), input(args, 'weight'), input(args, 'bias')];
  const activation = activationOf(args);
  if (!allFloat32(x, weight, bias)) return ctx.fallback('not float32 or empty') as TensorInfo;
  if (activation === undefined) return ctx.fallback(`activation ${String(args.attrs['activation'])}`) as TensorInfo;
  const s = sizes(x, weight);
  if (typeof s === 'string') return ctx.fallback(s) as TensorInfo;
  if (bias.shape.length !== 1 || bias.shape[0] !== s.outFeatures) return ctx.fallback(`bias shape [${bias.shape.join(',')}]`) as TensorInfo;
  const y = backend.makeOutput([s.rows, s.outFeatures], 'float32');
  ctx.addon.denseForward(view(backend, x), view(backend, weight), view(backend, bias), view(backend, y), s.rows, s.inFeatures, s.outFeatures, activation);
  return y;
}

function gradInput(args: NativeKernelArgs, ctx: NativeKernelContext): TensorInfo {
  const { backend } = args;
  const [dy, y, weight] = [input(args, 'dy'), input(args, 'y'), input(args, 'weight')];
  const activation = activationOf(args);
  if (!allFloat32(dy, y, weight) || activation === undefined) return ctx.fallback('not float32 or empty, or an unknown activation') as TensorInfo;
  if (weight.shape.length !== 2 || !fitsOutput(dy, dy.shape[0]!, weight.shape[1]!) || !fitsOutput(y, dy.shape[0]!, weight.shape[1]!)) {
    return ctx.fallback(`shapes dy [${dy.shape.join(',')}], y [${y.shape.join(',')}], weight [${weight.shape.join(',')}]`) as TensorInfo;
  }
  const [rows, out, inFeatures] = [dy.shape[0]!, weight.shape[1]!, weight.shape[0]!];
  const dx = backend.makeOutput([rows, inFeatures], 'float32');
  ctx.addon.denseGradInput(view(backend, dy), view(backend, y), view(backend, weight), view(backend, dx), rows, inFeatures, out, activation);
  return dx;
}

function gradWeight(args: NativeKernelArgs, ctx: NativeKernelContext): TensorInfo {
  const { backend } = args;
  const [dy, y, x] = [input(args, 'dy'), input(args, 'y'), input(args, 'x')];
  const activation = activationOf(args);
  if (!allFloat32(dy, y, x) || activation === undefined) return ctx.fallback('not float32 or empty, or an unknown activation') as TensorInfo;
  if (x.shape.length !== 2 || dy.shape.length !== 2 || x.shape[0] !== dy.shape[0] || !fitsOutput(y, dy.shape[0]!, dy.shape[1]!)) {
    return ctx.fallback(`shapes dy [${dy.shape.join(',')}], y [${y.shape.join(',')}], x [${x.shape.join(',')}]`) as TensorInfo;
  }
  const [rows, inFeatures, out] = [x.shape[0]!, x.shape[1]!, dy.shape[1]!];
  const dw = backend.makeOutput([inFeatures, out], 'float32');
  ctx.addon.denseGradWeight(view(backend, x), view(backend, dy), view(backend, y), view(backend, dw), rows, inFeatures, out, activation);
  return dw;
}

function gradBias(args: NativeKernelArgs, ctx: NativeKernelContext): TensorInfo {
  const { backend } = args;
  const [dy, y] = [input(args, 'dy'), input(args, 'y')];
  const activation = activationOf(args);
  if (!allFloat32(dy, y) || activation === undefined) return ctx.fallback('not float32 or empty, or an unknown activation') as TensorInfo;
  if (dy.shape.length !== 2 || !fitsOutput(y, dy.shape[0]!, dy.shape[1]!)) {
    return ctx.fallback(`shapes dy [${dy.shape.join(',')}], y [${y.shape.join(',')}]`) as TensorInfo;
  }
  const db = backend.makeOutput([dy.shape[1]!], 'float32');
  ctx.addon.denseGradBias(view(backend, dy), view(backend, y), view(backend, db), dy.shape[0]!, dy.shape[1]!, activation);
  return db;
}

/** `@mia/core`'s `denseBias`: `act(x·W + b)` in one call (sgemm, then bias and activation in one pass). */
export const denseBiasConfig: NativeKernelConfig = { kernelName: DENSE_BIAS, addonFunction: 'denseForward', run: forward };
/** Its input gradient `(dy·act′(y))·Wᵀ` in one call. */
export const denseBiasGradInputConfig: NativeKernelConfig = { kernelName: DENSE_BIAS_GRAD_INPUT, addonFunction: 'denseGradInput', run: gradInput };
/** Its weight gradient `xᵀ·(dy·act′(y))` in one call. */
export const denseBiasGradWeightConfig: NativeKernelConfig = { kernelName: DENSE_BIAS_GRAD_WEIGHT, addonFunction: 'denseGradWeight', run: gradWeight };
/** Its bias gradient, the column sums of `dy·act′(y)`, in one call. */
export const denseBiasGradBiasConfig: NativeKernelConfig = { kernelName: DENSE_BIAS_GRAD_BIAS, addonFunction: 'denseGradBias', run: gradBias };
