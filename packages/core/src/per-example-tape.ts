import type * as tf from '@tensorflow/tfjs-core';

/** Explicit NHWC padding `[[0, 0], [top, bottom], [left, right], [0, 0]]`, as `tf.conv2d` takes it. */
export type ExplicitPadding = readonly [readonly [number, number], readonly [number, number], readonly [number, number], readonly [number, number]];

/** Stride, padding and dilation of {@link PerExampleTape.conv2d}, as `tf.conv2d` takes them (NHWC). */
export interface TapeConv2dOptions {
  /** @default 1 */
  readonly strides?: number | readonly [number, number];
  /** tfjs' `'same'` / `'valid'`, a symmetric amount on every side, or explicit amounts. @default 'valid' */
  readonly pad?: 'same' | 'valid' | number | ExplicitPadding;
  /** @default 1 */
  readonly dilations?: number | readonly [number, number];
}

/**
 * The layers with trainable parameters of a forward pass, as a per-example-gradient method (DP-SGD's
 * per-layer clipping, `@mia/defense-dp`) needs to see them: a model runs `tape.dense` /
 * `tape.conv2d` / `tape.affine` instead of `tf.matMul` / `tf.conv2d` / `x·γ + β`, and any
 * parameter-free op (activations, pooling, reshapes, residual additions, normalisation without its
 * affine part) as it is. Every trainable variable goes through the tape once per forward pass.
 *
 * A `Classifier` that supports it takes one in `ForwardOptions.tape`; the architectures of
 * `@mia/models` do.
 * @see docs/protocol.md §4.16
 */
export interface PerExampleTape {
  /** `x·W + b` for `x` `[n, in]`, `W` `[in, out]`, `b` `[out]`. */
  dense(x: tf.Tensor2D, weight: tf.Variable, bias?: tf.Variable): tf.Tensor2D;
  /** `conv2d(x, W) + b` for `x` `[n, h, w, cin]` (NHWC), `W` `[kh, kw, cin, cout]`, `b` `[cout]`. */
  conv2d(x: tf.Tensor4D, weight: tf.Variable, bias: tf.Variable | undefined, options?: TapeConv2dOptions): tf.Tensor4D;
  /**
   * `x·γ + β` per channel (the last axis) for `x` `[n, …, c]`, `γ` and `β` `[c]`: the affine part of a
   * GroupNorm, LayerNorm or InstanceNorm applied to the normalised `x`.
   */
  affine(x: tf.Tensor, scale: tf.Variable, shift?: tf.Variable): tf.Tensor;
}
