import type { TensorInfo } from '@tensorflow/tfjs-core';
import { runStock, type KernelArgs, type TrainingKernelConfig } from '../internals/training-kernel';

/**
 * `Tile` when only leading size-1 axes are repeated (how tfjs-core's batch-norm gradient broadcasts
 * per-channel vectors to NHWC): the output is the input buffer repeated, written by doubling
 * `copyWithin`. The stock kernel is a generic per-element index loop. Other cases use the stock kernel.
 *
 * @see docs/performance.md, root cause 5.
 */
export const tileConfig: TrainingKernelConfig = {
  kernelName: 'Tile',
  kernelFunc(args: KernelArgs, stock) {
    const { inputs, backend, attrs } = args;
    const x = inputs['x'] as TensorInfo;
    const reps = attrs['reps'] as number[];
    let lead = 0;
    while (lead < reps.length && x.shape[lead] === 1) lead++;
    const covered = (x.dtype === 'float32' || x.dtype === 'int32') && reps.every((r, i) => i < lead || r === 1);
    if (!covered) return runStock('Tile', args, stock, `reps ${JSON.stringify(reps)} of shape ${JSON.stringify(x.shape)}`);
    const out = backend.makeOutput(
      x.shape.map((d, i) => d * (reps[i] as number)),
      x.dtype,
    );
    const src = backend.typedArrayFromHeap(x); // views taken after the allocation
    const dst = backend.typedArrayFromHeap(out);
    if (src.length === 0) return out;
    dst.set(src, 0);
    for (let filled = src.length; filled < dst.length;) {
      const chunk = Math.min(filled, dst.length - filled);
      dst.copyWithin(filled, 0, chunk);
      filled += chunk;
    }
    return out;
  },
};
