import type { TensorInfo } from '@tensorflow/tfjs-core';
import { runStock, type KernelArgs, type TrainingKernelConfig } from '../internals/training-kernel';

/**
 * `Tile` when the repeated axes are one contiguous run of size-1 axes: leading (how tfjs-core's
 * batch-norm gradient broadcasts per-channel vectors to NHWC) or in the middle (the gradient of a
 * global average pool, [n, 1, 1, c] → [n, h, w, c]). Each block of the input after the run is
 * written once per outer index, then repeated by doubling `copyWithin`. The stock kernel is a generic
 * per-element index loop. Other cases use the stock kernel.
 *
 * @see docs/performance.md, root cause 5.
 */
export const tileConfig: TrainingKernelConfig = {
  kernelName: 'Tile',
  kernelFunc(args: KernelArgs, stock) {
    const { inputs, backend, attrs } = args;
    const x = inputs['x'] as TensorInfo;
    const reps = attrs['reps'] as number[];
    const repeated = reps.flatMap((r, i) => (r === 1 ? [] : [i]));
    const first = repeated[0] ?? 0;
    const last = repeated[repeated.length - 1] ?? -1;
    let run = true;
    for (let i = first; i <= last; i++) run &&= x.shape[i] === 1;
    const covered = (x.dtype === 'float32' || x.dtype === 'int32') && run;
    if (!covered) return runStock('Tile', args, stock, `reps ${JSON.stringify(reps)} of shape ${JSON.stringify(x.shape)}`);
    const out = backend.makeOutput(
      x.shape.map((d, i) => d * (reps[i] as number)),
      x.dtype,
    );
    const src = backend.typedArrayFromHeap(x); // views taken after the allocation
    const dst = backend.typedArrayFromHeap(out);
    if (src.length === 0) return out;
    // outer × (times × inner): each outer index's inner block, repeated `times` times.
    const outer = x.shape.slice(0, first).reduce((p, d) => p * d, 1);
    const inner = src.length / outer;
    const block = dst.length / outer;
    for (let o = 0; o < outer; o++) {
      const start = o * block;
      dst.set(src.subarray(o * inner, (o + 1) * inner), start);
      for (let filled = inner; filled < block;) {
        const chunk = Math.min(filled, block - filled);
        dst.copyWithin(start + filled, start, start + chunk);
        filled += chunk;
      }
    }
    return out;
  },
};
