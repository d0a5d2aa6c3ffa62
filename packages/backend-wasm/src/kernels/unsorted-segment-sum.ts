import type { TensorInfo } from '@tensorflow/tfjs-core';
import { runStock, type KernelArgs, type TrainingKernelConfig } from '../internals/training-kernel';

/**
 * `out[s, …] = Σ_{i: ids[i] = s} x[i, …]` for `s < numSegments`, row-major; ids outside
 * `[0, numSegments)` are dropped, as in TensorFlow.
 *
 * @param x - `[n, …rest]` values.
 * @param ids - `n` segment ids.
 * @param numSegments - number of output rows.
 * @param rowSize - product of `rest`.
 * @param out - `numSegments · rowSize` zeros, filled in place.
 */
export function segmentSumInto(x: ArrayLike<number>, ids: ArrayLike<number>, numSegments: number, rowSize: number, out: Float32Array | Int32Array): void {
  for (let i = 0; i < ids.length; i++) {
    const s = ids[i] as number;
    if (s < 0 || s >= numSegments) continue;
    const o = s * rowSize;
    const r = i * rowSize;
    for (let j = 0; j < rowSize; j++) out[o + j] = (out[o + j] as number) + (x[r + j] as number);
  }
}

/**
 * `UnsortedSegmentSum`, which stock tfjs-backend-wasm 4.22 lacks: it is the gradient of `tf.gather`
 * (e.g. `@mia/defense-crl`'s centre loss picks each example's class centre with it), so without it
 * such models cannot train on wasm. A plain loop over the heap (segment ids of the whole leading
 * axes of `x`); a stock kernel, if a later tfjs ships one, is used for anything else.
 */
export const unsortedSegmentSumConfig: TrainingKernelConfig = {
  kernelName: 'UnsortedSegmentSum',
  kernelFunc(args: KernelArgs, stock) {
    const { inputs, backend, attrs } = args;
    const x = inputs['x'] as TensorInfo;
    const ids = inputs['segmentIds'] as TensorInfo;
    const numSegments = attrs['numSegments'] as number;
    const lead = ids.shape.length;
    const covered = (x.dtype === 'float32' || x.dtype === 'int32') && ids.shape.every((d, i) => d === x.shape[i]);
    if (!covered) return runStock('UnsortedSegmentSum', args, stock, `x ${x.dtype} ${JSON.stringify(x.shape)} with segmentIds ${JSON.stringify(ids.shape)}`);
    const rest = x.shape.slice(lead);
    const out = backend.makeOutput([numSegments, ...rest], x.dtype);
    const dst = backend.typedArrayFromHeap(out) as Float32Array | Int32Array; // views taken after the allocation
    dst.fill(0);
    segmentSumInto(
      backend.typedArrayFromHeap(x),
      backend.typedArrayFromHeap(ids),
      numSegments,
      rest.reduce((a, b) => a * b, 1),
      dst,
    );
    return out;
  },
};
