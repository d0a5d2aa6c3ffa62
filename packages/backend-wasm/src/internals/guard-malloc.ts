import { BackendError } from '@mia/core';
import type { WasmBackend } from './wasm-backend';

const guarded = Symbol.for('@mia/backend-wasm.guardedMalloc');
const maxHeapBytes = 2 ** 32;
/** Contiguous free space kept for the allocations the C++ side makes (tensor map, XNNPACK buffers). */
const reserveBytes = 64 * 2 ** 20;

interface MallocModule {
  _malloc(bytes: number): number;
  _free(address: number): void;
  /** The raw wasm exports (emscripten); `_malloc`/`_free` start as stubs that replace themselves with these. */
  asm?: { malloc?: (bytes: number) => number; free?: (address: number) => void };
  [guarded]?: true;
}

/**
 * Makes tensor allocation on the wasm heap fail loudly, with a BackendError.
 *
 * tfjs-backend-wasm 4.22 stores whatever `_malloc` returns as the tensor's address, so when the
 * 4 GB heap is exhausted (malloc returns 0) the tensor is written over the bottom of the heap: a
 * silent corruption. Sizes of 4 GB or more wrap to 32 bits and get a too-small block. And when a
 * tensor takes the last free megabytes, the next allocation on the C++ side (its tensor map, XNNPACK
 * buffers) fails unchecked and traps ("memory access out of bounds" in `_register_tensor`), leaving
 * the module in an unknown state. So once the heap is near its 4 GB limit, every tensor allocation
 * also checks that {@link reserveBytes} of contiguous space would remain. This catches the common
 * cases, not all: a large or fragmented C++ allocation can still fail and trap.
 */
export function guardMalloc(backend: WasmBackend): void {
  const wasm = backend.wasm as unknown as MallocModule;
  if (typeof wasm._malloc !== 'function' || wasm[guarded] === true) return;
  // Emscripten's `Module._malloc` is a stub that, on its first call, overwrites `Module._malloc`
  // with the raw export: wrapping the stub would silently drop the guard after one allocation.
  // So wrap the raw exports when they are reachable.
  const malloc = wasm.asm?.malloc ?? wasm._malloc.bind(wasm);
  const free = wasm.asm?.free ?? wasm._free.bind(wasm);
  wasm._malloc = (bytes: number): number => {
    let address = bytes < maxHeapBytes ? malloc(bytes) >>> 0 : 0;
    if (address !== 0 && backend.wasm.HEAPU8.buffer.byteLength > maxHeapBytes - 4 * reserveBytes) {
      const probe = malloc(reserveBytes) >>> 0;
      if (probe === 0) {
        free(address);
        address = 0;
      } else free(probe);
    }
    if (address === 0 && bytes > 0) {
      const heapMb = Math.round(backend.wasm.HEAPU8.buffer.byteLength / 2 ** 20);
      throw new BackendError(
        `@mia/backend-wasm: the wasm heap is exhausted (heap ${heapMb} MB, max 4096 MB) allocating ${Math.ceil(bytes / 2 ** 20)} MB; use a smaller batch or gradient accumulation`,
      );
    }
    return address;
  };
  wasm[guarded] = true;
}
