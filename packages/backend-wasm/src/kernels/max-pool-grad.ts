import { backend_util, type TensorInfo } from '@tensorflow/tfjs-core';
import { runStock, type KernelArgs, type TrainingKernelConfig } from '../internals/training-kernel';
import { heapFloat32 } from '../internals/wasm-backend';

/**
 * `MaxPoolGrad`: routes each dy value to the first maximum of its window (the cpu backend's rule),
 * in one pass over the heap with the channel loop innermost.
 *
 * Replaces the stock wasm kernel because that one is wrong: in tfjs-backend-wasm 4.22 it drops the
 * gradient of windows whose values are all negative (e.g. x = sin(7.77·i + 1) on a 1×4×4×1 input,
 * 2×2 stride 2: the second window, values −0.74, −0.73, −0.48, −0.92, gets no gradient). Found by
 * this package's whole-model gradient test; relu before a pool hides it, a pool before relu or
 * after a residual sum does not.
 */
export const maxPoolGradConfig: TrainingKernelConfig = {
  kernelName: 'MaxPoolGrad',
  kernelFunc(args: KernelArgs, stock) {
    const { inputs, backend, attrs } = args;
    const dy = inputs['dy'] as TensorInfo;
    const input = inputs['input'] as TensorInfo;
    if (input.dtype !== 'float32' || dy.dtype !== 'float32' || input.shape.length !== 4) {
      return runStock('MaxPoolGrad', args, stock, `dtype ${input.dtype}, rank ${input.shape.length}`);
    }
    const info = backend_util.computePool2DInfo(
      input.shape as [number, number, number, number],
      attrs['filterSize'] as number | [number, number],
      attrs['strides'] as number | [number, number],
      1,
      attrs['pad'] as 'same' | 'valid' | number,
      attrs['dimRoundingMode'] as 'floor' | 'round' | 'ceil' | undefined,
    );
    const { batchSize: n, inHeight: h, inWidth: w, inChannels: c, outHeight: ho, outWidth: wo } = info;
    const dx = backend.makeOutput(input.shape, 'float32');
    const x = heapFloat32(backend, input);
    const g = heapFloat32(backend, dy);
    const out = heapFloat32(backend, dx);
    out.fill(0);
    const best = new Float32Array(c);
    const where = new Int32Array(c);
    for (let b = 0, o = 0; b < n; b++) {
      for (let oy = 0; oy < ho; oy++) {
        const y0 = oy * info.strideHeight - info.padInfo.top;
        const yLo = Math.max(0, y0);
        const yHi = Math.min(h, y0 + info.filterHeight);
        for (let ox = 0; ox < wo; ox++, o += c) {
          const x0 = ox * info.strideWidth - info.padInfo.left;
          const xLo = Math.max(0, x0);
          const xHi = Math.min(w, x0 + info.filterWidth);
          best.fill(-Infinity);
          where.fill(((b * h + yLo) * w + xLo) * c);
          for (let iy = yLo; iy < yHi; iy++) {
            for (let ix = xLo; ix < xHi; ix++) {
              const base = ((b * h + iy) * w + ix) * c;
              for (let k = 0; k < c; k++) {
                const v = x[base + k] as number;
                if (v > (best[k] as number)) {
                  best[k] = v;
                  where[k] = base;
                }
              }
            }
          }
          for (let k = 0; k < c; k++) out[(where[k] as number) + k]! += g[o + k] as number;
        }
      }
    }
    return dx;
  },
};
