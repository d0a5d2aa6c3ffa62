import type { TensorInfo } from '@tensorflow/tfjs-core';
import { runStock, type KernelArgs, type TrainingKernelConfig } from '../internals/training-kernel';

/**
 * `Cast`. To the tensor's own dtype: no copy (tfjs-core's gradients cast float32 gradients to
 * float32; see `identityConfig` for why sharing is safe). To `bool`: `x ≠ 0`, because the stock
 * wasm kernel copies the numbers into bytes (−2.2 → 254 in 4.22). Other conversions: stock kernel.
 */
export const castConfig: TrainingKernelConfig = {
  kernelName: 'Cast',
  kernelFunc(args: KernelArgs, stock) {
    const { inputs, backend, attrs } = args;
    const x = inputs['x'] as TensorInfo;
    const dtype = attrs['dtype'];
    if (dtype === x.dtype && x.dtype !== 'string') {
      backend.incRef(x.dataId);
      return { dataId: x.dataId, shape: [...x.shape], dtype: x.dtype };
    }
    if (dtype === 'bool' && (x.dtype === 'float32' || x.dtype === 'int32')) {
      const out = backend.makeOutput([...x.shape], 'bool');
      const src = backend.typedArrayFromHeap(x);
      const dst = backend.typedArrayFromHeap(out);
      for (let i = 0; i < src.length; i++) dst[i] = src[i] !== 0 ? 1 : 0;
      return out;
    }
    return runStock('Cast', args, stock, `cast ${x.dtype} → ${String(dtype)}`);
  },
};
