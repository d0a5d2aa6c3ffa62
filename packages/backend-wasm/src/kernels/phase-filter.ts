import type { TensorInfo } from '@tensorflow/tfjs-core';
import { heapFloat32, type WasmBackend } from '../internals/wasm-backend';

/**
 * Gathers the sub-filter of one phase pair, with input and output channels swapped:
 * out[a, b, co, ci] = filter[tapsH[a], tapsW[b], ci, co], in one pass over the heap.
 *
 * (The wasm `Reverse` kernel is a generic per-element loop: ~75 ms for a 3×3×512×512 filter.)
 *
 * @param filter - float32 filter [kh, kw, ci, co].
 * @returns a new float32 tensor [tapsH.length, tapsW.length, co, ci].
 */
export function phaseFilter(backend: WasmBackend, filter: TensorInfo, tapsH: number[], tapsW: number[]): TensorInfo {
  const [, kw, ci, co] = filter.shape as [number, number, number, number];
  const out = backend.makeOutput([tapsH.length, tapsW.length, co, ci], 'float32');
  const w = heapFloat32(backend, filter);
  const o = heapFloat32(backend, out);
  const block = ci * co;
  let dst = 0;
  for (const th of tapsH) {
    for (const tw of tapsW) {
      const src = (th * kw + tw) * block;
      for (let b = 0; b < co; b++) {
        for (let a = 0; a < ci; a++) o[dst + b * ci + a] = w[src + a * co + b] as number;
      }
      dst += block;
    }
  }
  return out;
}
