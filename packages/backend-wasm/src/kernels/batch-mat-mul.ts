import type { TensorInfo } from '@tensorflow/tfjs-core';
import { free, reshape, sizeOf, transpose } from '../internals/kernel-call';
import { runStock, type KernelArgs, type StockKernel, type TrainingKernelConfig } from '../internals/training-kernel';
import type { WasmBackend } from '../internals/wasm-backend';

/**
 * `BatchMatMul` with a transposed operand: the stock wasm kernel takes XNNPACK only when neither
 * operand is transposed and the batch is 1, and otherwise runs a scalar loop (0.9–3 GFLOP/s).
 * Dense-layer gradients always transpose one side, so transpose explicitly and take the fast path.
 *
 * The wasm `Transpose` costs ~8 ns/element, so the cheaper of two equivalent forms is used:
 * C = op(A)·op(B), or C = (op(B)ᵀ·op(A)ᵀ)ᵀ, which also transposes the M×N output.
 *
 * Batched products, and products without transposes, go to the stock kernel.
 *
 * @see docs/performance.md, root cause 2.
 */
export const batchMatMulConfig: TrainingKernelConfig = {
  kernelName: 'BatchMatMul',
  kernelFunc(args: KernelArgs, stock) {
    const { inputs, backend, attrs } = args;
    const a = inputs['a'] as TensorInfo;
    const b = inputs['b'] as TensorInfo;
    const transposeA = attrs['transposeA'] === true;
    const transposeB = attrs['transposeB'] === true;
    const fits = a.dtype === 'float32' && b.dtype === 'float32' && sizeOf(a.shape.slice(0, -2)) === 1 && sizeOf(b.shape.slice(0, -2)) === 1;
    if ((!transposeA && !transposeB) || !fits || stock === undefined) {
      return runStock('BatchMatMul', args, stock, 'this case');
    }
    const a2 = reshape(backend, a, a.shape.slice(-2));
    const b2 = reshape(backend, b, b.shape.slice(-2));
    const [a0, a1] = a2.shape as [number, number];
    const [b0, b1] = b2.shape as [number, number];
    const m = transposeA ? a1 : a0;
    const k = transposeA ? a0 : a1;
    const n = transposeB ? b0 : b1;
    const mm = (p: TensorInfo, q: TensorInfo): TensorInfo => plainMatMul(backend, stock, p, q);
    const t = (x: TensorInfo): TensorInfo => transpose(backend, x, [1, 0]);
    const direct = (transposeA ? m * k : 0) + (transposeB ? n * k : 0);
    const swapped = (transposeA ? 0 : m * k) + (transposeB ? 0 : n * k) + m * n;
    let out: TensorInfo;
    if (direct <= swapped) {
      const p = transposeA ? t(a2) : a2;
      const q = transposeB ? t(b2) : b2;
      out = mm(p, q);
      if (p !== a2) free(backend, p);
      if (q !== b2) free(backend, q);
    } else {
      const p = transposeB ? b2 : t(b2); // op(B)ᵀ
      const q = transposeA ? a2 : t(a2); // op(A)ᵀ
      const ct = mm(p, q);
      if (p !== b2) free(backend, p);
      if (q !== a2) free(backend, q);
      out = t(ct);
      free(backend, ct);
    }
    free(backend, a2, b2);
    const outShape = [...(a.shape.length >= b.shape.length ? a.shape : b.shape).slice(0, -2), m, n];
    const result = reshape(backend, out, outShape);
    free(backend, out);
    return result;
  },
};

function plainMatMul(backend: WasmBackend, stock: NonNullable<StockKernel>, a: TensorInfo, b: TensorInfo): TensorInfo {
  return stock({ inputs: { a, b }, backend, attrs: { transposeA: false, transposeB: false } });
}
