import { backend_util, type TensorInfo } from '@tensorflow/tfjs-core';
import { allFloat32, sizeOf, view } from '../internals/heap-backend';
import { input, optionalInput, type NativeKernelArgs, type NativeKernelConfig, type NativeKernelContext } from '../internals/native-kernel';

const EPILOGUES = new Set(['linear', 'relu', 'relu6', 'elu', 'sigmoid', 'leakyrelu']);

function matMul(args: NativeKernelArgs, ctx: NativeKernelContext, fused: boolean): TensorInfo | TensorInfo[] {
  const { backend, attrs } = args;
  const a = input(args, 'a');
  const b = input(args, 'b');
  if (!allFloat32(a, b)) return ctx.fallback('not float32 or empty');
  if (a.shape.length < 2 || b.shape.length < 2) return ctx.fallback('rank < 2');
  const ta = attrs['transposeA'] === true;
  const tb = attrs['transposeB'] === true;
  const [a0, a1] = a.shape.slice(-2) as [number, number];
  const [b0, b1] = b.shape.slice(-2) as [number, number];
  const m = ta ? a1 : a0;
  const k = ta ? a0 : a1;
  const n = tb ? b0 : b1;
  if ((tb ? b1 : b0) !== k) return ctx.fallback(`inner dimensions ${k} and ${tb ? b1 : b0} differ`);
  const batchA = a.shape.slice(0, -2);
  const batchB = b.shape.slice(0, -2);
  const sizeA = sizeOf(batchA);
  const sizeB = sizeOf(batchB);
  // Same batch dims, or one side a single matrix broadcast over the other's batch.
  const sameBatch = batchA.length === batchB.length && batchA.every((d, i) => d === batchB[i]);
  if (!sameBatch && sizeA !== 1 && sizeB !== 1) return ctx.fallback(`batch shapes [${batchA.join(',')}] and [${batchB.join(',')}]`);
  // The broadcast batch shape keeps the size-1 axes of the longer side (a [1,1,m,k] · b [3,k,n] is [1,3,m,n]).
  const outBatch = backend_util.assertAndGetBroadcastShape(batchA, batchB);
  let bias: TensorInfo | undefined;
  let activation = 'linear';
  if (fused) {
    bias = optionalInput(args, 'bias');
    activation = (attrs['activation'] as string | undefined) ?? 'linear';
    if (optionalInput(args, 'preluActivationWeights') !== undefined || !EPILOGUES.has(activation)) return ctx.fallback(`activation ${activation}`);
    if (bias !== undefined && (bias.dtype !== 'float32' || sizeOf(bias.shape) !== n || bias.shape[bias.shape.length - 1] !== n)) {
      return ctx.fallback(`bias shape [${bias.shape.join(',')}]`);
    }
  }
  const batch = Math.max(sizeA, sizeB);
  const c = backend.makeOutput([...outBatch, m, n], 'float32');
  const cView = view(backend, c);
  ctx.addon.gemm(ta, tb, m, n, k, view(backend, a), view(backend, b), cView, batch, sizeA === 1 ? 0 : m * k, sizeB === 1 ? 0 : k * n);
  if (fused && (bias !== undefined || activation !== 'linear')) {
    ctx.addon.biasActivation(
      cView,
      batch * m,
      n,
      bias === undefined ? null : view(backend, bias),
      activation,
      (attrs['leakyreluAlpha'] as number | undefined) ?? 0.2,
    );
  }
  return c;
}

/** `BatchMatMul` through oneDNN's sgemm: every transpose combination, equal or broadcast (size-1) batches. */
export const batchMatMulConfig: NativeKernelConfig = { kernelName: 'BatchMatMul', run: (args, ctx) => matMul(args, ctx, false) };

/** `_FusedMatMul` (tfjs-layers' dense layers): sgemm, then bias over the last axis and the activation in one pass. */
export const fusedMatMulConfig: NativeKernelConfig = { kernelName: '_FusedMatMul', run: (args, ctx) => matMul(args, ctx, true) };
