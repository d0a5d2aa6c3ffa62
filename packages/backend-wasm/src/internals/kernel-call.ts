import { getKernel, type TensorInfo } from '@tensorflow/tfjs-core';
import type { WasmBackend } from './wasm-backend';

type AnyKernelFunc = (args: { inputs: unknown; backend: unknown; attrs?: unknown }) => TensorInfo | TensorInfo[];

/** Stock kernel functions replaced by this package, captured at registration (kernel name → func). */
export const stockKernels = new Map<string, AnyKernelFunc>();

/**
 * Runs a wasm kernel directly on TensorInfos (nothing is recorded on the gradient tape, no engine
 * tensor is created). For a kernel this package replaced, the stock one runs.
 */
export function callKernel(
  name: string,
  backend: WasmBackend,
  inputs: Record<string, TensorInfo> | TensorInfo[],
  attrs: object = {},
): TensorInfo {
  const func = stockKernels.get(name) ?? (getKernel(name, 'wasm')?.kernelFunc as AnyKernelFunc | undefined);
  if (func === undefined) throw new Error(`@mia/backend-wasm: no wasm kernel ${name}`);
  return func({ inputs, backend, attrs }) as TensorInfo;
}

/** Frees kernel intermediates (each must own one reference). */
export function free(backend: WasmBackend, ...infos: (TensorInfo | undefined)[]): void {
  for (const info of infos) if (info !== undefined) backend.disposeData(info.dataId);
}

/** Transposes `x` with the stock wasm Transpose kernel. */
export function transpose(backend: WasmBackend, x: TensorInfo, perm: number[]): TensorInfo {
  return callKernel('Transpose', backend, { x }, { perm });
}

/** Reshapes `x` (a new reference to the same data; free it like any other output). */
export function reshape(backend: WasmBackend, x: TensorInfo, shape: number[]): TensorInfo {
  return callKernel('Reshape', backend, { x }, { shape });
}

/** Takes the slice `[begin, begin + size)` of `x`. */
export function slice(backend: WasmBackend, x: TensorInfo, begin: number[], size: number[]): TensorInfo {
  return callKernel('Slice', backend, { x }, { begin, size });
}

/**
 * Rows `[begin, begin + size)` of `x` along its first axis: a contiguous block, so one heap `memcpy`
 * (`copyWithin`) instead of the stock wasm `Slice` (a generic per-element loop, ~20 ns/element on
 * 4-D float tensors).
 */
export function sliceOuter(backend: WasmBackend, x: TensorInfo, begin: number, size: number): TensorInfo {
  const inner = sizeOf(x.shape.slice(1));
  const out = backend.makeOutput([size, ...x.shape.slice(1)], x.dtype);
  const src = backend.typedArrayFromHeap(x); // views taken after the allocation
  const dst = backend.typedArrayFromHeap(out);
  dst.set(src.subarray(begin * inner, (begin + size) * inner));
  return out;
}

/** Product of the dimensions of `shape` (1 for a scalar). */
export function sizeOf(shape: readonly number[]): number {
  let n = 1;
  for (const d of shape) n *= d;
  return n;
}
