import { SOFTMAX_CROSS_ENTROPY, SOFTMAX_CROSS_ENTROPY_GRAD } from '@mia/core';
import type { TensorInfo } from '@tensorflow/tfjs-core';
import { allFloat32, view, type HeapBackend } from '../internals/heap-backend';
import { input, type NativeKernelArgs, type NativeKernelConfig, type NativeKernelContext } from '../internals/native-kernel';

/** Why logits and labels do not fit the kernel, or undefined when they do. */
function misfit(logits: TensorInfo, labels: TensorInfo, reduction: unknown): string | undefined {
  if (!allFloat32(logits) || labels.dtype !== 'int32') return 'logits not float32 or empty, or labels not int32';
  if (logits.shape.length !== 2 || labels.shape.length !== 1 || labels.shape[0] !== logits.shape[0]) {
    return `shapes logits [${logits.shape.join(',')}], labels [${labels.shape.join(',')}]`;
  }
  return reduction === 'none' || reduction === 'mean' ? undefined : `reduction ${String(reduction)}`;
}

const labelsView = (backend: HeapBackend, labels: TensorInfo): Int32Array => backend.typedArrayFromHeap(labels) as Int32Array;

function forward(args: NativeKernelArgs, ctx: NativeKernelContext): TensorInfo {
  const { backend, attrs } = args;
  const [logits, labels] = [input(args, 'logits'), input(args, 'labels')];
  const reduction = attrs['reduction'] as 'none' | 'mean';
  const why = misfit(logits, labels, reduction);
  if (why !== undefined) return ctx.fallback(why) as TensorInfo;
  const [rows, classes] = logits.shape as [number, number];
  const loss = backend.makeOutput(reduction === 'mean' ? [] : [rows], 'float32');
  ctx.addon.softmaxCrossEntropy(view(backend, logits), labelsView(backend, labels), view(backend, loss), rows, classes, reduction);
  return loss;
}

function gradient(args: NativeKernelArgs, ctx: NativeKernelContext): TensorInfo {
  const { backend, attrs } = args;
  const [dy, logits, labels] = [input(args, 'dy'), input(args, 'logits'), input(args, 'labels')];
  const reduction = attrs['reduction'] as 'none' | 'mean';
  const why = misfit(logits, labels, reduction);
  if (why !== undefined) return ctx.fallback(why) as TensorInfo;
  const [rows, classes] = logits.shape as [number, number];
  if (!allFloat32(dy) || dy.shape.length !== (reduction === 'mean' ? 0 : 1) || (reduction === 'none' && dy.shape[0] !== rows)) {
    return ctx.fallback(`dy shape [${dy.shape.join(',')}]`) as TensorInfo;
  }
  const dlogits = backend.makeOutput([rows, classes], 'float32');
  ctx.addon.softmaxCrossEntropyGrad(view(backend, dy), view(backend, logits), labelsView(backend, labels), view(backend, dlogits), rows, classes, reduction);
  return dlogits;
}

/** `@mia/core`'s cross-entropy from logits and int32 labels (per example or mean) in one call. */
export const softmaxCrossEntropyConfig: NativeKernelConfig = { kernelName: SOFTMAX_CROSS_ENTROPY, addonFunction: 'softmaxCrossEntropy', run: forward };
/** Its gradient with respect to the logits in one call. */
export const softmaxCrossEntropyGradConfig: NativeKernelConfig = {
  kernelName: SOFTMAX_CROSS_ENTROPY_GRAD,
  addonFunction: 'softmaxCrossEntropyGrad',
  run: gradient,
};
