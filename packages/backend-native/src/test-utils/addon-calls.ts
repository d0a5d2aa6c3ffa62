import { expect } from 'vitest';
import type { NativeAddon } from '../native-addon';
import { randomValues } from './backends';

/** An argument of an addon call, with the name the addon's errors give it. */
export type Arg = [name: string, value: unknown];

/** A valid call of one addon function. */
export interface Call {
  fn: keyof NativeAddon;
  args: () => Arg[];
}

/** n uniform(-1, 1) values (seeded by n). */
export const f32 = (n: number): Float32Array => randomValues(n, n);
// [n, h, w, ci, kh, kw, co, oh, ow, sh, sw, padTop, padLeft, padBottom, padRight, dilH, dilW]
export const convDims = [1, 4, 4, 2, 3, 3, 3, 4, 4, 1, 1, 1, 1, 1, 1, 1, 1];
// [n, h, w, c, kh, kw, sh, sw, padTop, padLeft, oh, ow]
export const poolDims = [1, 4, 4, 2, 2, 2, 2, 2, 0, 0, 2, 2];

/** One valid call of every addon function (small shapes), each argument named as the addon names it. */
export const calls: Call[] = [
  {
    fn: 'conv2dForward',
    args: () => [
      ['x', f32(32)],
      ['filter', f32(54)],
      ['bias', f32(3)],
      ['y', f32(48)],
      ['dims', convDims],
      ['activation', 'relu'],
    ],
  },
  {
    fn: 'conv2dBackwardData',
    args: () => [
      ['dy', f32(48)],
      ['filter', f32(54)],
      ['dx', f32(32)],
      ['dims', convDims],
    ],
  },
  {
    fn: 'conv2dBackwardWeights',
    args: () => [
      ['x', f32(32)],
      ['dy', f32(48)],
      ['dw', f32(54)],
      ['dims', convDims],
    ],
  },
  {
    fn: 'gemm',
    args: () => [
      ['transposeA', false],
      ['transposeB', true],
      ['m', 2],
      ['n', 3],
      ['k', 4],
      ['a', f32(8)],
      ['b', f32(12)],
      ['c', f32(6)],
      ['batch', 1],
      ['strideA', 0],
      ['strideB', 0],
    ],
  },
  {
    fn: 'biasActivation',
    args: () => [
      ['y', f32(6)],
      ['rows', 2],
      ['cols', 3],
      ['bias', f32(3)],
      ['activation', 'relu6'],
      ['alpha', 0.2],
    ],
  },
  {
    fn: 'denseForward',
    args: () => [
      ['x', f32(8)],
      ['weight', f32(12)],
      ['bias', f32(3)],
      ['y', f32(6)],
      ['rows', 2],
      ['inFeatures', 4],
      ['outFeatures', 3],
      ['activation', 'tanh'],
    ],
  },
  {
    fn: 'denseGradInput',
    args: () => [
      ['dy', f32(6)],
      ['y', f32(6)],
      ['weight', f32(12)],
      ['dx', f32(8)],
      ['rows', 2],
      ['inFeatures', 4],
      ['outFeatures', 3],
      ['activation', 'relu'],
    ],
  },
  {
    fn: 'denseGradWeight',
    args: () => [
      ['x', f32(8)],
      ['dy', f32(6)],
      ['y', f32(6)],
      ['dw', f32(12)],
      ['rows', 2],
      ['inFeatures', 4],
      ['outFeatures', 3],
      ['activation', 'tanh'],
    ],
  },
  {
    fn: 'denseGradBias',
    args: () => [
      ['dy', f32(6)],
      ['y', f32(6)],
      ['db', f32(3)],
      ['rows', 2],
      ['outFeatures', 3],
      ['activation', 'tanh'],
    ],
  },
  {
    fn: 'softmaxCrossEntropy',
    args: () => [
      ['logits', f32(6)],
      ['labels', Int32Array.of(0, 2)],
      ['loss', f32(2)],
      ['rows', 2],
      ['classes', 3],
      ['reduction', 'none'],
    ],
  },
  {
    fn: 'softmaxCrossEntropyGrad',
    args: () => [
      ['dy', f32(2)],
      ['logits', f32(6)],
      ['labels', Int32Array.of(0, 2)],
      ['dlogits', f32(6)],
      ['rows', 2],
      ['classes', 3],
      ['reduction', 'none'],
    ],
  },
  {
    fn: 'gather',
    args: () => [
      ['x', f32(6)],
      ['indices', Int32Array.of(2, 0)],
      ['out', f32(4)],
      ['outer', 1],
      ['dim', 3],
      ['slice', 2],
    ],
  },
  {
    fn: 'binary',
    args: () => [
      ['op', 'add'],
      ['a', f32(6)],
      ['aShape', [2, 3]],
      ['b', f32(3)],
      ['bShape', [3]],
      ['out', f32(6)],
      ['outShape', [2, 3]],
    ],
  },
  {
    fn: 'unary',
    args: () => [
      ['op', 'tanh'],
      ['x', f32(6)],
      ['y', f32(6)],
      ['size', 6],
      ['alpha', 0],
    ],
  },
  {
    fn: 'reluGrad',
    args: () => [
      ['dy', f32(6)],
      ['x', f32(6)],
      ['dx', f32(6)],
      ['size', 6],
    ],
  },
  {
    fn: 'tanhGrad',
    args: () => [
      ['dy', f32(6)],
      ['y', f32(6)],
      ['dx', f32(6)],
      ['size', 6],
    ],
  },
  {
    fn: 'reduce',
    args: () => [
      ['op', 'sum'],
      ['x', f32(24)],
      ['outer', 2],
      ['mid', 3],
      ['inner', 4],
      ['out', f32(8)],
    ],
  },
  {
    fn: 'pool2d',
    args: () => [
      ['mode', 'max'],
      ['x', f32(32)],
      ['y', f32(8)],
      ['dims', poolDims],
    ],
  },
  {
    fn: 'maxPoolGrad',
    args: () => [
      ['dy', f32(8)],
      ['x', f32(32)],
      ['dx', f32(32)],
      ['dims', poolDims],
    ],
  },
  {
    fn: 'avgPoolGrad',
    args: () => [
      ['dy', f32(8)],
      ['dx', f32(32)],
      ['dims', poolDims],
    ],
  },
  {
    fn: 'batchNorm',
    args: () => [
      ['x', f32(6)],
      ['mean', f32(3)],
      ['variance', Float32Array.of(1, 2, 3)],
      ['offset', f32(3)],
      ['scale', f32(3)],
      ['y', f32(6)],
      ['rows', 2],
      ['channels', 3],
      ['eps', 1e-3],
    ],
  },
  {
    fn: 'batchNormTrain',
    args: () => [
      ['x', f32(6)],
      ['scale', f32(3)],
      ['offset', f32(3)],
      ['y', f32(6)],
      ['mean', f32(3)],
      ['variance', f32(3)],
      ['rows', 2],
      ['channels', 3],
      ['eps', 1e-3],
    ],
  },
  {
    fn: 'batchNormTrainGrad',
    args: () => [
      ['dy', f32(6)],
      ['x', f32(6)],
      ['mean', f32(3)],
      ['variance', Float32Array.of(1, 2, 3)],
      ['scale', f32(3)],
      ['dx', f32(6)],
      ['dScale', f32(3)],
      ['dOffset', f32(3)],
      ['rows', 2],
      ['channels', 3],
      ['eps', 1e-3],
    ],
  },
];

/** Calls `fn` of the addon with `args`. */
export function invoke(addon: NativeAddon, fn: keyof NativeAddon, args: unknown[]): unknown {
  return (addon[fn] as (...a: unknown[]) => unknown)(...args);
}

/**
 * Expects `args` (a valid call with argument `at` replaced) to throw `type` whose message starts with
 * the function and that argument's name (or `named`, when the check that fails is on another argument,
 * e.g. the view that cannot hold a product of valid sizes).
 */
export function expectRejected(addon: NativeAddon, call: Call, at: number, value: unknown, type: ErrorConstructor, detail?: RegExp, named?: string): void {
  const args = call.args();
  const name = args[at]![0];
  args[at] = [name, value];
  const shown = named ?? name;
  let error: unknown;
  try {
    invoke(
      addon,
      call.fn,
      args.map(([, v]) => v),
    );
  } catch (e) {
    error = e;
  }
  const label = `${call.fn}(${name} = ${show(value)})`;
  expect(error, label).toBeInstanceOf(type);
  expect((error as Error).message, label).toMatch(new RegExp(`^${call.fn}: ${shown}\\b`));
  if (detail !== undefined) expect((error as Error).message, label).toMatch(detail);
}

function show(v: unknown): string {
  if (ArrayBuffer.isView(v)) return `${v.constructor.name}(${(v as Float32Array).length})`;
  return JSON.stringify(v) ?? String(v);
}

/** The valid call of `fn`. */
export const callOf = (fn: Call['fn']): Call => calls.find((c) => c.fn === fn)!;
