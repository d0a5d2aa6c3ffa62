import { backend_util, type TensorInfo } from '@tensorflow/tfjs-core';
import { callKernel, free } from '../internals/kernel-call';
import { runStock, type KernelArgs, type TrainingKernelConfig } from '../internals/training-kernel';
import { heapFloat32, type WasmBackend } from '../internals/wasm-backend';
import { phaseFilter } from './phase-filter';
import { planAxisPhases, type AxisPhase } from './sub-pixel-plan';

/**
 * `Conv2DBackpropInput` as XNNPACK convolutions (the stock wasm kernel is a scalar loop, 3–5
 * GFLOP/s).
 *
 * Stride 1: one `Conv2D` of dy with the rotated, in/out-swapped filter. Stride s > 1: the sub-pixel
 * decomposition of {@link planAxisPhases} — s×s stride-1 convolutions with sub-filters, whose
 * outputs are interleaved into dx. This does the same multiply-adds as the forward pass, where the
 * zero-upsampling of the prototype did s² times as many.
 *
 * @see docs/performance.md, root cause 4.
 */
export const conv2DBackpropInputConfig: TrainingKernelConfig = {
  kernelName: 'Conv2DBackpropInput',
  kernelFunc(args: KernelArgs, stock) {
    const { inputs, backend, attrs } = args;
    const dy = inputs['dy'] as TensorInfo;
    const filter = inputs['filter'] as TensorInfo;
    const dataFormat = (attrs['dataFormat'] as string | undefined) ?? 'NHWC';
    if (dataFormat !== 'NHWC' || dy.dtype !== 'float32' || filter.dtype !== 'float32') {
      return runStock('Conv2DBackpropInput', args, stock, `dataFormat ${dataFormat} / dtype ${dy.dtype}`);
    }
    const inputShape = attrs['inputShape'] as [number, number, number, number];
    const info = backend_util.computeConv2DInfo(
      inputShape,
      filter.shape as [number, number, number, number],
      attrs['strides'] as number | [number, number],
      1,
      attrs['pad'] as 'same' | 'valid' | number,
      attrs['dimRoundingMode'] as 'floor' | 'round' | 'ceil' | undefined,
      false,
      'channelsLast',
    );
    const rows = planAxisPhases(info.inHeight, info.outHeight, info.filterHeight, info.strideHeight, info.padInfo.top);
    const cols = planAxisPhases(info.inWidth, info.outWidth, info.filterWidth, info.strideWidth, info.padInfo.left);
    const single = rows.length === 1 && cols.length === 1 && rows[0]!.dySize > 0 && cols[0]!.dySize > 0;
    if (single) return phaseConv(backend, dy, filter, rows[0]!, cols[0]!);
    const dx = backend.makeOutput(inputShape, 'float32');
    // Positions no filter tap reaches (e.g. odd rows of a 1×1 stride-2 conv) get zero gradient.
    if (rows.some((r) => r.dySize === 0) || cols.some((c) => c.dySize === 0)) heapFloat32(backend, dx).fill(0);
    for (const row of rows) {
      for (const col of cols) {
        if (row.dySize === 0 || col.dySize === 0) continue;
        const part = phaseConv(backend, dy, filter, row, col);
        scatterPhase(backend, part, dx, row, col, info.strideHeight, info.strideWidth);
        free(backend, part);
      }
    }
    return dx;
  },
};

/** dx restricted to one (row, col) phase: a stride-1 `Conv2D` of the cropped dy with the phase's sub-filter. */
function phaseConv(backend: WasmBackend, dy: TensorInfo, filter: TensorInfo, row: AxisPhase, col: AxisPhase): TensorInfo {
  const [n, ho, wo, co] = dy.shape as [number, number, number, number];
  const crop = row.dyBegin !== 0 || col.dyBegin !== 0 || row.dySize !== ho || col.dySize !== wo;
  const src = crop ? cropWindow(backend, dy, row.dyBegin, col.dyBegin, row.dySize, col.dySize) : dy;
  const sub = phaseFilter(backend, filter, row.taps, col.taps);
  const out = callKernel(
    'Conv2D',
    backend,
    { x: src, filter: sub },
    {
      strides: [1, 1],
      pad: [
        [0, 0],
        [row.padBefore, row.padAfter],
        [col.padBefore, col.padAfter],
        [0, 0],
      ],
      dataFormat: 'NHWC',
      dilations: [1, 1],
    },
  );
  free(backend, sub);
  if (crop) free(backend, src);
  return out;
}

/** dy[:, top : top + height, left : left + width, :] as a new tensor: one heap `copyWithin` per image row (the stock `Slice` is a per-element loop). */
function cropWindow(backend: WasmBackend, dy: TensorInfo, top: number, left: number, height: number, width: number): TensorInfo {
  const [n, ho, wo, c] = dy.shape as [number, number, number, number];
  const out = backend.makeOutput([n, height, width, c], 'float32');
  const dstView = heapFloat32(backend, out); // views taken after the allocation
  const heap = new Float32Array(dstView.buffer);
  const s0 = heapFloat32(backend, dy).byteOffset >> 2;
  let d = dstView.byteOffset >> 2;
  const run = width * c;
  for (let b = 0; b < n; b++) {
    for (let y = 0; y < height; y++, d += run) {
      const s = s0 + ((b * ho + top + y) * wo + left) * c;
      heap.copyWithin(d, s, s + run);
    }
  }
  return out;
}

/** Writes part[n, th, tw, :] to dx[n, row.offset + sh·th, col.offset + sw·tw, :] (heap `copyWithin` per pixel). */
function scatterPhase(backend: WasmBackend, part: TensorInfo, dx: TensorInfo, row: AxisPhase, col: AxisPhase, sh: number, sw: number): void {
  const [n, h, w, c] = dx.shape as [number, number, number, number];
  const srcView = heapFloat32(backend, part);
  const heap = new Float32Array(srcView.buffer);
  const d0 = heapFloat32(backend, dx).byteOffset >> 2;
  let s = srcView.byteOffset >> 2;
  for (let b = 0; b < n; b++) {
    for (let th = 0; th < row.count; th++) {
      let d = d0 + ((b * h + row.offset + sh * th) * w + col.offset) * c;
      for (let tw = 0; tw < col.count; tw++, s += c, d += sw * c) heap.copyWithin(d, s, s + c);
    }
  }
}
