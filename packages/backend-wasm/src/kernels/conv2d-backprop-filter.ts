import { backend_util, type TensorInfo } from '@tensorflow/tfjs-core';
import { callKernel, free, slice, sliceOuter, transpose } from '../internals/kernel-call';
import { runStock, type KernelArgs, type TrainingKernelConfig } from '../internals/training-kernel';
import { heapFloat32, type WasmBackend } from '../internals/wasm-backend';
import { filterGradientIm2col, prefersIm2col } from './filter-gradient-im2col';

/**
 * `Conv2DBackpropFilter` (missing from tfjs-backend-wasm): the filter gradient as a forward
 * `Conv2D` with roles swapped, so that XNNPACK computes it.
 *
 * dW[i,j,ci,co] = Σ_{n,y,x} X[n, y·s+i−pt, x·s+j−pl, ci] · dY[n,y,x,co], which is a convolution of
 * Xᵀ = [Ci,H,W,N] ("batch" Ci, "channels" N) with the "filter" dYᵀ = [Ho,Wo,N,Co] at dilation = stride,
 * giving [Ci,kh,kw,Co], transposed to [kh,kw,Ci,Co].
 * Strided layers with ≥ 64 channels and 4×4 maps with ≥ 512 channels use an im2col GEMM instead
 * ({@link prefersIm2col}), measured faster there.
 *
 * @see PERFORMANCE.md root cause 3.
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
    if (filterShape[0] === 1 && filterShape[1] === 1 && (info.strideHeight > 1 || info.strideWidth > 1)) {
      // 1×1 at stride s: only every s-th input pixel meets a tap. Gather those first, so that the
      // convolution below computes the one tap instead of up to s² (cropped away afterwards).
      const xs = subsample(backend, x, info);
      const unit = backend_util.computeConv2DInfo(xs.shape as [number, number, number, number], filterShape, 1, 1, 'valid', undefined, false, 'channelsLast');
      const dw = chunkedFilterGradient(backend, xs, dy, unit, filterShape);
      free(backend, xs);
      return dw;
    }
    if (prefersIm2col(info, filterShape)) return filterGradientIm2col(backend, x, dy, info, filterShape);
    return chunkedFilterGradient(backend, x, dy, info, filterShape);
  },
};

/** The filter gradient over batch chunks (summed), transposed to [kh, kw, Ci, Co]. */
function chunkedFilterGradient(
  backend: WasmBackend,
  x: TensorInfo,
  dy: TensorInfo,
  info: backend_util.Conv2DInfo,
  filterShape: [number, number, number, number],
): TensorInfo {
  // XNNPACK streams the whole inner dimension Ho·Wo·N for every block of outputs, so split the batch
  // into chunks of about chunkInner (measured: 25–30% faster on 32×32 maps at batch 64) and add up.
  const n = x.shape[0] as number;
  const perImage = info.outHeight * info.outWidth;
  const chunk = Math.min(n, Math.max(1, Math.floor(chunkInner / perImage)));
  let acc: TensorInfo | undefined;
  for (let b0 = 0; b0 < n; b0 += chunk) {
    const size = Math.min(chunk, n - b0);
    const xs = size === n ? x : sliceOuter(backend, x, b0, size);
    const dys = size === n ? dy : sliceOuter(backend, dy, b0, size);
    const part = filterGradientRolesSwapped(backend, xs, dys, info, filterShape);
    if (size !== n) free(backend, xs, dys);
    if (acc === undefined) acc = part;
    else {
      const sum = callKernel('Add', backend, { a: acc, b: part });
      free(backend, acc, part);
      acc = sum;
    }
  }
  const dw = transpose(backend, acc!, [1, 2, 0, 3]); // [Ci,kh,kw,Co] → [kh,kw,Ci,Co]
  free(backend, acc);
  return dw;
}

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

/** Inner-dimension size (Ho·Wo·images) per XNNPACK call of the filter gradient. */
const chunkInner = 16384;

/** The filter gradient of one batch chunk, laid out [Ci, kh, kw, Co]. */
function filterGradientRolesSwapped(
  backend: WasmBackend,
  x: TensorInfo,
  dy: TensorInfo,
  info: backend_util.Conv2DInfo,
  filterShape: [number, number, number, number],
): TensorInfo {
  const [kh, kw, cin, cout] = filterShape;
  const p = info.padInfo;
  const xT = transpose(backend, x, [3, 1, 2, 0]);
  const dyT = transpose(backend, dy, [1, 2, 0, 3]);
  const out = callKernel(
    'Conv2D',
    backend,
    { x: xT, filter: dyT },
    {
      strides: [1, 1],
      pad: [[0, 0], [p.top, p.bottom], [p.left, p.right], [0, 0]],
      dataFormat: 'NHWC',
      dilations: [info.strideHeight, info.strideWidth],
    },
  );
  free(backend, xT, dyT);
  if (out.shape[1] === kh && out.shape[2] === kw) return out;
  // A stride that does not divide the padded size leaves spare taps past the filter (e.g. 1×1, stride 2).
  const cropped = slice(backend, out, [0, 0, 0, 0], [cin, kh, kw, cout]);
  free(backend, out);
  return cropped;
}
