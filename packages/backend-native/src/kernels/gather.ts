import { util, type TensorInfo } from '@tensorflow/tfjs-core';
import { sizeOf, view, type HeapBackend } from '../internals/heap-backend';
import { input, type NativeKernelConfig } from '../internals/native-kernel';

/** A float32 view of a 4-byte tensor's heap data (int32 bits are copied, never read as floats). */
function bits(backend: HeapBackend, t: TensorInfo): Float32Array {
  if (t.dtype === 'float32') return view(backend, t);
  const a = backend.typedArrayFromHeap(t);
  return new Float32Array(a.buffer, a.byteOffset, a.length);
}

/**
 * `GatherV2` (`tf.gather`, how `@mia/core`'s `labeledData` draws every batch) without batch
 * dimensions, float32 or int32 values, int32 indices: one row copy per index. An index out of range
 * falls back to the wasm kernel, which throws tfjs's error for it.
 */
export const gatherV2Config: NativeKernelConfig = {
  kernelName: 'GatherV2',
  addonFunction: 'gather',
  run(args, ctx) {
    const { backend, attrs } = args;
    const x = input(args, 'x');
    const indices = input(args, 'indices');
    if ((x.dtype !== 'float32' && x.dtype !== 'int32') || indices.dtype !== 'int32') return ctx.fallback(`dtypes ${x.dtype} and ${indices.dtype}`);
    if (((attrs['batchDims'] as number | undefined) ?? 0) !== 0) return ctx.fallback('batchDims');
    if (sizeOf(x.shape) === 0 || sizeOf(indices.shape) === 0) return ctx.fallback('empty');
    const axis = util.parseAxisParam(attrs['axis'] as number, x.shape)[0]!;
    const outShape = [...x.shape.slice(0, axis), ...indices.shape, ...x.shape.slice(axis + 1)];
    const out = backend.makeOutput(outShape, x.dtype);
    const ok = ctx.addon.gather(
      bits(backend, x),
      backend.typedArrayFromHeap(indices) as Int32Array,
      bits(backend, out),
      sizeOf(x.shape.slice(0, axis)),
      x.shape[axis]!,
      sizeOf(x.shape.slice(axis + 1)),
    );
    if (ok) return out;
    backend.disposeData(out.dataId);
    return ctx.fallback('an index out of range');
  },
};
