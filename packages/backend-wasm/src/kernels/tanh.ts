import type { TensorInfo } from '@tensorflow/tfjs-core';
import { sizeOf } from '../internals/kernel-call';
import { runStock, type KernelArgs, type TrainingKernelConfig } from '../internals/training-kernel';
import { heapFloat32 } from '../internals/wasm-backend';

// Eigen's float tanh (Eigen/src/Core/MathFunctionsImpl.h, `generic_fast_tanh_float`, as used by
// TensorFlow): p(x)/q(x) with an odd degree-13 numerator and an even degree-6 denominator, on x
// clamped to ±7.905311; here evaluated in float64, max relative error ≈ 2.4·10⁻⁷ (2 float32 ulps).
const a1 = 4.89352455891786e-3;
const a3 = 6.37261928875436e-4;
const a5 = 1.48572235717979e-5;
const a7 = 5.12229709037114e-8;
const a9 = -8.60467152213735e-11;
const a11 = 2.00018790482477e-13;
const a13 = -2.76076847742355e-16;
const b0 = 4.89352518554385e-3;
const b2 = 2.268434632439e-3;
const b4 = 1.18534705686654e-4;
const b6 = 1.19825839466702e-6;
/** Beyond this |x|, tanh x rounds to ±1 in float32 within 2 ulps; returned as exactly ±1. */
export const tanhSaturatesAt = 7.90531110763549805;

/** dst[i] = tanh(src[i]) for i < n (a separate function so that V8 optimises the loop on its own). */
export function tanhInto(src: Float32Array, dst: Float32Array, n: number): void {
  for (let i = 0; i < n; i++) {
    const x = src[i] as number;
    if (x > tanhSaturatesAt) dst[i] = 1;
    else if (x < -tanhSaturatesAt) dst[i] = -1;
    else {
      const x2 = x * x;
      const p = x * (a1 + x2 * (a3 + x2 * (a5 + x2 * (a7 + x2 * (a9 + x2 * (a11 + x2 * a13))))));
      dst[i] = p / (b0 + x2 * (b2 + x2 * (b4 + x2 * b6)));
    }
  }
}

/**
 * `Tanh` in one JavaScript pass over the heap with a rational approximation (see {@link tanhInto}):
 * the stock wasm kernel is a scalar `std::tanh` loop, 2.5–3× slower (about 3 ms of the 5 ms the
 * Purchase MLP's 4 activations take per training step). NaN stays NaN and ±∞ gives ±1.
 * Non-float32 tensors use the stock kernel.
 */
export const tanhConfig: TrainingKernelConfig = {
  kernelName: 'Tanh',
  kernelFunc(args: KernelArgs, stock) {
    const { inputs, backend } = args;
    const x = inputs['x'] as TensorInfo;
    if (x.dtype !== 'float32') return runStock('Tanh', args, stock, `dtype ${x.dtype}`);
    const out = backend.makeOutput([...x.shape], 'float32');
    const size = sizeOf(x.shape);
    if (size > 0) tanhInto(heapFloat32(backend, x), heapFloat32(backend, out), size); // views after the allocation
    return out;
  },
};
