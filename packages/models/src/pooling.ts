import * as tf from '@tensorflow/tfjs-core';
import type { Layer } from './layer';

/** PyTorch `MaxPool2d(kernel, stride, padding)` (padding never wins the max). @internal */
export function maxPool(kernel: number, stride: number, padding = 0): Layer {
  return (x) => tf.maxPool(x as tf.Tensor4D, kernel, stride, padding === 0 ? 'valid' : padding);
}

/**
 * PyTorch `AvgPool2d(kernel, stride, padding)` with its default `count_include_pad=True`: zero
 * padding counts in the average (tfjs' padded average excludes it, so pad explicitly).
 * @internal
 */
export function avgPool(kernel: number, stride: number, padding = 0): Layer {
  return (x) => {
    const padded =
      padding === 0
        ? x
        : tf.pad(x, [
            [0, 0],
            [padding, padding],
            [padding, padding],
            [0, 0],
          ]);
    return tf.avgPool(padded as tf.Tensor4D, kernel, stride, 'valid');
  };
}

/** Global average pooling `[n, h, w, c] → [n, c]` (PyTorch `adaptive_avg_pool2d(x, 1).flatten(1)`). @internal */
export const globalAvgPool: Layer = (x) => tf.mean(x, [1, 2]);

/** `ReLU`. @internal */
export const relu: Layer = (x) => tf.relu(x);

/** Inverted dropout with rate `p`, seeded per call from the run context; identity in eval mode. @internal */
export function dropout(p: number): Layer {
  return (x, ctx) => (ctx.training && p > 0 ? tf.dropout(x, p, undefined, ctx.nextSeed()) : x);
}
