import type { DataType, TensorInfo, TypedArray } from '@tensorflow/tfjs-core';

/**
 * The members of `BackendWasm` (tfjs-backend-wasm 4.22) that the training kernels use.
 *
 * These are public methods of the class but not a documented API, so the supported tfjs range is
 * pinned in `supportedTfjsRange` and {@link isWasmBackend} checks their presence at run time.
 */
export interface WasmBackend {
  /** Allocates an output on the wasm heap (refCount 1). */
  makeOutput(shape: number[], dtype: DataType): TensorInfo;
  /** A typed-array view of a tensor's bytes on the heap; invalid after the heap grows. */
  typedArrayFromHeap(info: TensorInfo): TypedArray;
  /** Decrements the refCount of a data id and frees it at zero. */
  disposeData(dataId: object, force?: boolean): boolean;
  /** Increments the refCount of a data id. */
  incRef(dataId: object): void;
  /** The emscripten module: its heap is a (growable) `WebAssembly.Memory`. */
  wasm: { HEAPU8: Uint8Array };
}

/** True when `backend` exposes every member of {@link WasmBackend}. */
export function isWasmBackend(backend: unknown): backend is WasmBackend {
  if (typeof backend !== 'object' || backend === null) return false;
  const b = backend as Record<string, unknown>;
  const wasm = b['wasm'] as { HEAPU8?: unknown } | undefined;
  return (
    typeof b['makeOutput'] === 'function' &&
    typeof b['typedArrayFromHeap'] === 'function' &&
    typeof b['disposeData'] === 'function' &&
    typeof b['incRef'] === 'function' &&
    typeof wasm === 'object' &&
    wasm !== null &&
    wasm.HEAPU8 instanceof Uint8Array
  );
}

/** A float32 view of a float32 tensor on the heap (take it after the last allocation). */
export function heapFloat32(backend: WasmBackend, info: TensorInfo): Float32Array {
  return backend.typedArrayFromHeap(info) as Float32Array;
}
