import type { DataType, TensorInfo, TypedArray } from '@tensorflow/tfjs-core';

/**
 * The members of tfjs-backend-wasm 4.22's `BackendWasm` the native kernels use: outputs are
 * allocated on the wasm heap and every tensor is read and written in place through views of it.
 */
export interface HeapBackend {
  makeOutput(shape: number[], dtype: DataType): TensorInfo;
  /** A view of a tensor's bytes on the heap; detached when the heap grows, so take it after the last allocation. */
  typedArrayFromHeap(info: TensorInfo): TypedArray;
  disposeData(dataId: object, force?: boolean): boolean;
  wasm: { HEAPU8: Uint8Array };
}

/** True when `backend` has every member of {@link HeapBackend}. */
export function isHeapBackend(backend: unknown): backend is HeapBackend {
  if (typeof backend !== 'object' || backend === null) return false;
  const b = backend as Record<string, unknown>;
  const wasm = b['wasm'] as { HEAPU8?: unknown } | undefined;
  return (
    typeof b['makeOutput'] === 'function' &&
    typeof b['typedArrayFromHeap'] === 'function' &&
    typeof b['disposeData'] === 'function' &&
    typeof wasm === 'object' &&
    wasm !== null &&
    wasm.HEAPU8 instanceof Uint8Array
  );
}

/** The float32 view of `info` on the heap (take it after allocating every output of the kernel). */
export function view(backend: HeapBackend, info: TensorInfo): Float32Array {
  return backend.typedArrayFromHeap(info) as Float32Array;
}

/** Number of elements of a shape. */
export const sizeOf = (shape: readonly number[]): number => shape.reduce((a, b) => a * b, 1);

/** True when every tensor is float32 and non-empty. */
export const allFloat32 = (...infos: (TensorInfo | undefined)[]): boolean =>
  infos.every((t) => t === undefined || (t.dtype === 'float32' && sizeOf(t.shape) > 0));
