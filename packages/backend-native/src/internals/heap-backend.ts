import type { TensorInfo } from '@tensorflow/tfjs-core';

/**
 * The wasm backend the native kernels compute on (outputs allocated on its heap, every tensor read
 * and written in place through views of it), as `@mia/backend-wasm` describes and checks it.
 */
export { isWasmBackend as isHeapBackend, heapFloat32 as view, type WasmBackend as HeapBackend } from '@mia/backend-wasm';

/** Number of elements of a shape. */
export const sizeOf = (shape: readonly number[]): number => shape.reduce((a, b) => a * b, 1);

/** True when every tensor is float32 and non-empty. */
export const allFloat32 = (...infos: (TensorInfo | undefined)[]): boolean =>
  infos.every((t) => t === undefined || (t.dtype === 'float32' && sizeOf(t.shape) > 0));
