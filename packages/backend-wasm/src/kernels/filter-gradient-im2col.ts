import type { backend_util, TensorInfo } from '@tensorflow/tfjs-core';
import { accumulate, callKernel, free, reshape, sliceOuter, transpose } from '../internals/kernel-call';
import { heapFloat32, type WasmBackend } from '../internals/wasm-backend';

/** Largest im2col block (floats) built at once; larger batches are split by images (32 MB, plus its transpose). */
const maxPatchFloats = 8 * 2 ** 20;

/**
 * The filter gradient as one GEMM: dW[(i,j,ci), co] = Σ_p P[p, (i,j,ci)] · dY[p, co] over the output
 * pixels p = (n, y, x), with the im2col matrix P[p, (i,j,ci)] = x[n, y·sh + i − top, x·sw + j − left, ci]
 * (0 in the padding) built on the heap, transposed by the wasm `Transpose`, and multiplied by
 * XNNPACK (`BatchMatMul` without transposes); the [kh·kw·Ci, Co] result is already the filter
 * layout [kh, kw, Ci, Co]. Batches whose P exceeds 8M floats are done in image chunks and summed.
 * `Conv2DBackpropFilter` uses it for 1×1 filters (after gathering the pixels they read), where P is
 * the input itself; larger filters go through `filterGradientPlanes`, which builds Pᵀ directly.
 *
 * @param x - input [N, H, W, Ci], float32.
 * @param dy - output gradient [N, Ho, Wo, Co], float32.
 * @param maxFloats - largest im2col block per chunk (tests lower it to exercise chunking).
 * @returns dW [kh, kw, Ci, Co] (owned by the caller).
 */
export function filterGradientIm2col(
  backend: WasmBackend,
  x: TensorInfo,
  dy: TensorInfo,
  info: backend_util.Conv2DInfo,
  filterShape: readonly [number, number, number, number],
  maxFloats = maxPatchFloats,
): TensorInfo {
  const [kh, kw, cin] = filterShape;
  const n = x.shape[0] as number;
  const pixels = info.outHeight * info.outWidth;
  const cols = kh * kw * cin;
  const chunk = Math.max(1, Math.min(n, Math.floor(maxFloats / (pixels * cols))));
  return chunkedFilterGradient(backend, dy, chunk, filterShape, (b0, size) => {
    const patches = im2col(backend, x, info, filterShape, b0, size);
    const patchesT = transpose(backend, patches, [1, 0]);
    free(backend, patches);
    return patchesT;
  });
}

/**
 * dW [kh, kw, Ci, Co] = Σ over image chunks of Pᵀ·dY: for images [b0, b0 + size), `patchesT(b0, size)`
 * gives Pᵀ [kh·kw·Ci, size·Ho·Wo] (freed here), multiplied by that chunk's rows of dY with XNNPACK and
 * summed over the chunks.
 */
export function chunkedFilterGradient(
  backend: WasmBackend,
  dy: TensorInfo,
  images: number,
  filterShape: readonly [number, number, number, number],
  patchesT: (b0: number, size: number) => TensorInfo,
): TensorInfo {
  const [kh, kw, cin, cout] = filterShape;
  const [n, ho, wo] = dy.shape as [number, number, number, number];
  const pixels = ho * wo;
  const dy2 = reshape(backend, dy, [n * pixels, cout]);
  let acc: TensorInfo | undefined;
  for (let b0 = 0; b0 < n; b0 += images) {
    const size = Math.min(images, n - b0);
    const pT = patchesT(b0, size);
    const dys = size === n ? dy2 : sliceOuter(backend, dy2, b0 * pixels, size * pixels);
    const part = callKernel('BatchMatMul', backend, { a: pT, b: dys }, { transposeA: false, transposeB: false });
    free(backend, pT);
    if (dys !== dy2) free(backend, dys);
    acc = accumulate(backend, acc, part);
  }
  free(backend, dy2);
  const dw = reshape(backend, acc!, [kh, kw, cin, cout]);
  free(backend, acc);
  return dw;
}

/** P for images [b0, b0 + size): [size·Ho·Wo, kh·kw·Ci], one Ci-run copy per (pixel, tap). */
function im2col(
  backend: WasmBackend,
  x: TensorInfo,
  info: backend_util.Conv2DInfo,
  filterShape: readonly [number, number, number, number],
  b0: number,
  size: number,
): TensorInfo {
  const [kh, kw, cin] = filterShape;
  const [, h, w] = x.shape as [number, number, number, number];
  const { outHeight: ho, outWidth: wo, strideHeight: sh, strideWidth: sw } = info;
  const { top, left } = info.padInfo;
  const out = backend.makeOutput([size * ho * wo, kh * kw * cin], 'float32');
  const src = heapFloat32(backend, x); // views taken after the allocation
  const dst = heapFloat32(backend, out);
  let d = 0;
  for (let b = b0; b < b0 + size; b++) {
    for (let oy = 0; oy < ho; oy++) {
      for (let ox = 0; ox < wo; ox++) {
        for (let i = 0; i < kh; i++) {
          const iy = oy * sh + i - top;
          for (let j = 0; j < kw; j++, d += cin) {
            const ix = ox * sw + j - left;
            if (iy < 0 || iy >= h || ix < 0 || ix >= w) dst.fill(0, d, d + cin);
            else {
              const s = ((b * h + iy) * w + ix) * cin;
              dst.set(src.subarray(s, s + cin), d);
            }
          }
        }
      }
    }
  }
  return out;
}
