import { backend_util, type TensorInfo } from '@tensorflow/tfjs-core';
import { free, reshape, transpose } from '../internals/kernel-call';
import { runStock, type KernelArgs, type TrainingKernelConfig } from '../internals/training-kernel';
import { heapFloat32, type WasmBackend } from '../internals/wasm-backend';
import { chunkedFilterGradient, filterGradientPlanes } from './filter-gradient-planes';

/**
 * `Conv2DBackpropFilter` (missing from tfjs-backend-wasm) as XNNPACK GEMMs over the output pixels:
 *
 * - 3×3-type filters: dW = Pᵀ·dY with the transposed im2col matrix Pᵀ built directly from shifted
 *   input planes ({@link filterGradientPlanes});
 * - 1×1 filters: the pixels the filter reads (every s-th at stride s) gathered first; Pᵀ is then
 *   just those pixels transposed to [Ci, N·Ho·Wo], and dW one GEMM.
 *
 * Measured (one thread, fastest of 5) against the roles-swapped forward convolution that the
 * prototype and this package used before (x → [Ci,H,W,N] convolved with dy → [Ho,Wo,N,Co] at
 * dilation = stride): batch 64, 32×32×64 → 64: 257 vs 318 ms; 32×32×64 → 128 stride 2: 165 vs 211;
 * 8×8×256 → 512 stride 2: 113 vs 186; 16×16×64 → 128 1×1: 16 vs 48; batch 128, 32×32×3 → 32: 28 vs 51.
 *
 * @see docs/performance.md, root cause 3.
 */
export const conv2DBackpropFilterConfig: TrainingKernelConfig = {
  kernelName: 'Conv2DBackpropFilter',
  kernelFunc(args: KernelArgs, stock) {
    const { inputs, backend, attrs } = args;
    const x = inputs['x'] as TensorInfo;
    const dy = inputs['dy'] as TensorInfo;
    const filterShape = attrs['filterShape'] as [number, number, number, number];
    const dataFormat = (attrs['dataFormat'] as string | undefined) ?? 'NHWC';
    if (dataFormat !== 'NHWC' || x.dtype !== 'float32' || dy.dtype !== 'float32') {
      return runStock('Conv2DBackpropFilter', args, stock, `dataFormat ${dataFormat} / dtype ${x.dtype}`);
    }
    const info = backend_util.computeConv2DInfo(
      x.shape as [number, number, number, number],
      filterShape,
      attrs['strides'] as number | [number, number],
      1,
      attrs['pad'] as 'same' | 'valid' | number,
      attrs['dimRoundingMode'] as 'floor' | 'round' | 'ceil' | undefined,
      false,
      'channelsLast',
    );
    if (filterShape[0] !== 1 || filterShape[1] !== 1) return filterGradientPlanes(backend, x, dy, info, filterShape);
    // 1×1: only the pixels the filter reads matter (every s-th at stride s, zeros in any padding).
    const p = info.padInfo;
    const direct = info.strideHeight === 1 && info.strideWidth === 1 && p.top === 0 && p.bottom === 0 && p.left === 0 && p.right === 0;
    const xs = direct ? x : subsample(backend, x, info);
    const [n, ho, wo, cin] = xs.shape as [number, number, number, number];
    const flat = reshape(backend, xs, [n * ho * wo, cin]);
    const pT = transpose(backend, flat, [1, 0]);
    free(backend, flat);
    if (xs !== x) free(backend, xs);
    return chunkedFilterGradient(backend, dy, n, filterShape, () => pT);
  },
};

/** x at the pixels a 1×1 filter reads: [N, Ho, Wo, Ci], xs[n,i,j] = x[n, i·sh − top, j·sw − left] (0 outside). */
function subsample(backend: WasmBackend, x: TensorInfo, info: backend_util.Conv2DInfo): TensorInfo {
  const [n, h, w, c] = x.shape as [number, number, number, number];
  const { outHeight: ho, outWidth: wo, strideHeight: sh, strideWidth: sw } = info;
  const out = backend.makeOutput([n, ho, wo, c], 'float32');
  const src = heapFloat32(backend, x);
  const dst = heapFloat32(backend, out);
  for (let b = 0, d = 0; b < n; b++) {
    for (let i = 0; i < ho; i++) {
      const y = i * sh - info.padInfo.top;
      for (let j = 0; j < wo; j++, d += c) {
        const xx = j * sw - info.padInfo.left;
        if (y < 0 || y >= h || xx < 0 || xx >= w) dst.fill(0, d, d + c);
        else dst.set(src.subarray(((b * h + y) * w + xx) * c, ((b * h + y) * w + xx + 1) * c), d);
      }
    }
  }
  return out;
}
