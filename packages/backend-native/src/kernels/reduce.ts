import { util } from '@tensorflow/tfjs-core';
import { allFloat32, view } from '../internals/heap-backend';
import { input, type NativeKernelConfig } from '../internals/native-kernel';

/** x viewed as [outer, mid, inner] with `axes` (ignoring size-1 axes) the middle group, or undefined when they are not contiguous. */
export function reductionSplit(shape: readonly number[], axes: readonly number[]): { outer: number; mid: number; inner: number } | undefined {
  const reduced = new Set(axes);
  const kept = shape.map((d, i) => ({ d, r: reduced.has(i) })).filter((a) => a.d !== 1);
  const first = kept.findIndex((a) => a.r);
  if (first < 0) return undefined;
  let last = first;
  while (last + 1 < kept.length && kept[last + 1]!.r) last++;
  if (kept.slice(last + 1).some((a) => a.r)) return undefined;
  const prod = (xs: { d: number }[]): number => xs.reduce((p, a) => p * a.d, 1);
  return { outer: prod(kept.slice(0, first)), mid: prod(kept.slice(first, last + 1)), inner: prod(kept.slice(last + 1)) };
}

function reduceConfig(kernelName: string, op: 'sum' | 'mean' | 'max' | 'min', axisAttr: string): NativeKernelConfig {
  return {
    kernelName,
    run(args, ctx) {
      const { backend, attrs } = args;
      const x = input(args, 'x');
      if (!allFloat32(x)) return ctx.fallback('not float32 or empty');
      const axes = util.parseAxisParam(attrs[axisAttr] as number | number[], x.shape);
      const split = reductionSplit(x.shape, axes);
      if (split === undefined) return ctx.fallback(axes.length === 0 ? 'no axes' : 'axes not contiguous');
      const keepDims = attrs['keepDims'] === true;
      const outShape = keepDims ? x.shape.map((d, i) => (axes.includes(i) ? 1 : d)) : x.shape.filter((_, i) => !axes.includes(i));
      const out = backend.makeOutput(outShape, 'float32');
      ctx.addon.reduce(op, view(backend, x), split.outer, split.mid, split.inner, view(backend, out));
      return out;
    },
  };
}

/** `Sum`, `Mean`, `Max`, `Min` over one contiguous group of axes (size-1 axes ignored), float32; sums in double. */
export const reduceConfigs: NativeKernelConfig[] = [
  reduceConfig('Sum', 'sum', 'axis'),
  reduceConfig('Mean', 'mean', 'axis'),
  reduceConfig('Max', 'max', 'reductionIndices'),
  reduceConfig('Min', 'min', 'axis'),
];
