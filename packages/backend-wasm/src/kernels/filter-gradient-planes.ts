import type { backend_util, TensorInfo } from '@tensorflow/tfjs-core';
import { accumulate, callKernel, free, reshape, sliceOuter, transpose } from '../internals/kernel-call';
import { heapFloat32, type WasmBackend } from '../internals/wasm-backend';

/** Output pixels per GEMM: keeps a 4-row block of Pᵀ and a packed dY panel in L2. */
const pixelsPerChunk = 8192;

/** Whether {@link filterGradientPlanes} handles this layer: any undilated convolution. */
export function fitsPlanes(info: backend_util.Conv2DInfo): boolean {
  return info.dilationHeight === 1 && info.dilationWidth === 1;
}

/**
 * The filter gradient as GEMMs with no transpose of the large operand: dW[(i,j,ci), co] =
 * Σ_p Pᵀ[(i,j,ci), p] · dY[p, co] over the output pixels p = (n, y, x), where
 * Pᵀ[(i,j,ci), (n,y,x)] = x[n, y·sh + i − top, x·sw + j − left, ci] (0 in the padding).
 *
 * x is transposed once to Xᵀ = [Ci, N, H, W], so every row of Pᵀ reads one channel plane. For stride-1
 * convolutions whose output is the input's size (3×3 pad 1, 1×1 valid), a row over an image chunk is
 * that plane shifted by (i − top)·W + (j − left): one heap `copyWithin`, then zeros where the tap falls
 * in the padding. Other layers (strided, `valid`) gather the row output line by output line. Pᵀ is
 * XNNPACK's unpacked left operand, so only the dY chunk gets packed; the pixel axis is split into
 * chunks of about 8192 so the GEMM's operands stay in cache, and the chunk products are summed.
 *
 * Measured (one thread, fastest of 5, vs the roles-swapped convolution this replaced): batch 64,
 * 32×32×64 → 64: 259 vs 326 ms; 8×8×256 → 256: 196 vs 254 ms; batch 128, 32×32×32 → 32: 147 vs 179 ms.
 *
 * @param x - input [N, H, W, Ci], float32.
 * @param dy - output gradient [N, Ho, Wo, Co], float32.
 * @param info - the convolution's info; must satisfy {@link fitsPlanes}.
 * @param chunkPixels - output pixels per GEMM (tests lower it to exercise chunking).
 * @returns dW [kh, kw, Ci, Co] (owned by the caller).
 */
export function filterGradientPlanes(
  backend: WasmBackend,
  x: TensorInfo,
  dy: TensorInfo,
  info: backend_util.Conv2DInfo,
  filterShape: readonly [number, number, number, number],
  chunkPixels = pixelsPerChunk,
): TensorInfo {
  if (!fitsPlanes(info)) throw new Error(`@mia/backend-wasm: filterGradientPlanes needs dilation 1, got ${info.dilationHeight}×${info.dilationWidth}`);
  const n = x.shape[0] as number;
  const pixels = info.outHeight * info.outWidth;
  const images = Math.max(1, Math.min(n, Math.floor(chunkPixels / pixels)));
  const xT = transpose(backend, x, [3, 0, 1, 2]); // [Ci, N, H, W]
  const dw = chunkedFilterGradient(backend, dy, images, filterShape, (b0, size) => patchesTransposed(backend, xT, info, filterShape, b0, size));
  free(backend, xT);
  return dw;
}

/** Pᵀ for images [b0, b0 + size): [kh·kw·Ci, size·Ho·Wo], read from Xᵀ = [Ci, N, H, W]. */
function patchesTransposed(
  backend: WasmBackend,
  xT: TensorInfo,
  info: backend_util.Conv2DInfo,
  filterShape: readonly [number, number, number, number],
  b0: number,
  size: number,
): TensorInfo {
  const [kh, kw, cin] = filterShape;
  const [, n, h, w] = xT.shape as [number, number, number, number];
  const { outHeight: ho, outWidth: wo, strideHeight: sh, strideWidth: sw } = info;
  const { top, left } = info.padInfo;
  const len = size * ho * wo;
  const out = backend.makeOutput([kh * kw * cin, len], 'float32');
  // One Float32Array over the whole heap, so that copies are heap.copyWithin (no subarray objects).
  const dstView = heapFloat32(backend, out);
  const heap = new Float32Array(dstView.buffer);
  const src0 = heapFloat32(backend, xT).byteOffset >> 2;
  const channel = n * h * w;
  const shifted = sh === 1 && sw === 1 && ho === h && wo === w;
  let d = dstView.byteOffset >> 2;
  for (let i = 0; i < kh; i++) {
    const dyOff = i - top; // source row = y·sh + dyOff
    // Output rows y ∈ [y0, y1) and columns x ∈ [x0, x1) read inside the image.
    const y0 = Math.min(ho, Math.max(0, Math.ceil(-dyOff / sh)));
    const y1 = Math.max(y0, Math.min(ho, Math.floor((h - 1 - dyOff) / sh) + 1));
    for (let j = 0; j < kw; j++) {
      const dxOff = j - left; // source column = x·sw + dxOff
      const x0 = Math.min(wo, Math.max(0, Math.ceil(-dxOff / sw)));
      const x1 = Math.max(x0, Math.min(wo, Math.floor((w - 1 - dxOff) / sw) + 1));
      for (let c = 0; c < cin; c++, d += len) {
        const base = src0 + c * channel + b0 * h * w; // the chunk's plane of channel c
        if (shifted) shiftedPlane(heap, d, base, len, dyOff * w + dxOff, b0 * h * w, channel, size, h, w, y0, y1, x0, x1);
        else {
          for (let b = 0, o = d; b < size; b++) {
            const img = base + b * h * w;
            for (let y = 0; y < ho; y++, o += wo) {
              if (y < y0 || y >= y1) {
                heap.fill(0, o, o + wo);
                continue;
              }
              const row = img + (y * sh + dyOff) * w + dxOff;
              if (x0 > 0) heap.fill(0, o, o + x0);
              if (x1 < wo) heap.fill(0, o + x1, o + wo);
              if (sw === 1) heap.copyWithin(o + x0, row + x0, row + x1);
              else for (let xx = x0; xx < x1; xx++) heap[o + xx] = heap[row + xx * sw] as number;
            }
          }
        }
      }
    }
  }
  return out;
}

/**
 * One row of Pᵀ for a stride-1, size-preserving layer: the chunk's channel plane shifted by `shift`,
 * then zeros at the taps that fall in the padding (whole rows outside [y0, y1) and columns outside
 * [x0, x1) of every image). The copy stays inside the channel's own data: `before` elements of the
 * channel precede the chunk, `channel` in all.
 */
function shiftedPlane(
  heap: Float32Array,
  d: number,
  base: number,
  len: number,
  shift: number,
  before: number,
  channel: number,
  size: number,
  h: number,
  w: number,
  y0: number,
  y1: number,
  x0: number,
  x1: number,
): void {
  const from = Math.min(len, Math.max(0, -(before + shift)));
  const to = Math.max(from, Math.min(len, channel - before - shift));
  if (from > 0) heap.fill(0, d, d + from);
  if (to > from) heap.copyWithin(d + from, base + shift + from, base + shift + to);
  if (to < len) heap.fill(0, d + to, d + len);
  if (y0 === 0 && y1 === h && x0 === 0 && x1 === w) return;
  for (let b = 0; b < size; b++) {
    const img = d + b * h * w;
    if (y0 > 0) heap.fill(0, img, img + y0 * w);
    if (y1 < h) heap.fill(0, img + y1 * w, img + h * w);
    if (x0 > 0 || x1 < w) {
      for (let y = y0; y < y1; y++) {
        const row = img + y * w;
        for (let xx = 0; xx < x0; xx++) heap[row + xx] = 0;
        for (let xx = x1; xx < w; xx++) heap[row + xx] = 0;
      }
    }
  }
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
