import { engine, getKernel, type Tensor } from '@tensorflow/tfjs-core';
import type { FastGradient } from '@mia/backend-wasm';
import { allFloat32, sizeOf, view } from '../internals/heap-backend';
import { input, type NativeKernelConfig } from '../internals/native-kernel';

/** Kernel of the fused ReLU gradient: dx = dy where x > 0, else 0 (NaN x gives NaN, as dy·step(x)). */
export const RELU_GRAD = 'MiaReluGrad';
/** Kernel of the fused tanh gradient: dx = dy·(1 − y²). */
export const TANH_GRAD = 'MiaTanhGrad';

function sameShape(a: { shape: readonly number[] }, b: { shape: readonly number[] }): boolean {
  return a.shape.length === b.shape.length && a.shape.every((d, i) => d === b.shape[i]);
}

function gradKernel(kernelName: string, other: 'x' | 'y', run: 'reluGrad' | 'tanhGrad'): NativeKernelConfig {
  return {
    kernelName,
    run(args, ctx) {
      const { backend } = args;
      const dy = input(args, 'dy');
      const t = input(args, other);
      if (!allFloat32(dy, t) || !sameShape(dy, t)) return ctx.fallback('not float32 or shapes differ');
      const dx = backend.makeOutput(dy.shape, 'float32');
      ctx.addon[run](view(backend, dy), view(backend, t), view(backend, dx), sizeOf(dy.shape));
      return dx;
    },
  };
}

/** `MiaReluGrad`: the gradient of `Relu` in one pass (tfjs-core's takes three: step, cast, multiply). */
export const reluGradConfig = gradKernel(RELU_GRAD, 'x', 'reluGrad');
/** `MiaTanhGrad`: the gradient of `Tanh` in one pass (tfjs-core's takes three: square, sub, multiply). */
export const tanhGradConfig = gradKernel(TANH_GRAD, 'y', 'tanhGrad');

function fused(kernelName: string, other: 'x' | 'y'): FastGradient {
  return (dy, saved) => {
    const [t] = saved as [Tensor];
    if (getKernel(kernelName, engine().backendName) === undefined || dy.dtype !== 'float32' || t.dtype !== 'float32' || !sameShape(dy, t)) return undefined;
    return { x: () => engine().runKernel(kernelName, { dy, [other]: t }) as Tensor };
  };
}

/** The `Relu` gradient through {@link RELU_GRAD} where a backend registers it (else tfjs-core's). */
export const reluGradient = fused(RELU_GRAD, 'x');
/** The `Tanh` gradient through {@link TANH_GRAD} where a backend registers it (else tfjs-core's). */
export const tanhGradient = fused(TANH_GRAD, 'y');
