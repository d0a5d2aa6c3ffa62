import type { TensorInfo } from '@tensorflow/tfjs-core';
import { runStock, type KernelArgs, type TrainingKernelConfig } from '../internals/training-kernel';

/**
 * `Identity` without a copy: a new reference to the same heap data, as the cpu backend does.
 *
 * The engine clones every tensor it saves for the backward pass through this kernel; the stock wasm
 * kernel copies the bytes, which doubles the memory of saved activations (the reason ResNet-18 at
 * batch 128 exhausted the 4 GB heap) and costs a full memory pass each. Kernels never write into
 * their inputs, so sharing the data is safe. String tensors use the stock kernel.
 */
export const identityConfig: TrainingKernelConfig = {
  kernelName: 'Identity',
  kernelFunc(args: KernelArgs, stock) {
    const x = args.inputs['x'] as TensorInfo;
    if (x.dtype === 'string') return runStock('Identity', args, stock, 'string tensors');
    args.backend.incRef(x.dataId);
    return { dataId: x.dataId, shape: [...x.shape], dtype: x.dtype };
  },
};
