import * as tf from '@tensorflow/tfjs-core';

type CustomGradientFunc = Parameters<typeof tf.customGrad>[0];

/** Stride, padding and dilation of {@link PerExampleTape.conv2d}, as `tf.conv2d` takes them (NHWC). */
export interface TapeConv2dOptions {
  /** @default 1 */
  readonly strides?: number | readonly [number, number];
  /** @default 'valid' */
  readonly pad?: 'same' | 'valid';
  /** @default 1 */
  readonly dilations?: number | readonly [number, number];
}

/**
 * The layers a model runs through so that DP-SGD can read each example's gradient norm per layer:
 * a forward pass written with `tape.dense` / `tape.conv2d` instead of `tf.matMul` / `tf.conv2d`
 * (plus any parameter-free ops: activations, pooling, reshapes, dropout). Every trainable variable
 * must be used through the tape, once per forward pass.
 */
export interface PerExampleTape {
  /** `x·W + b` for `x` `[n, in]`, `W` `[in, out]`, `b` `[out]`. */
  dense(x: tf.Tensor2D, weight: tf.Variable, bias?: tf.Variable): tf.Tensor2D;
  /** `conv2d(x, W) + b` for `x` `[n, h, w, cin]` (NHWC), `W` `[kh, kw, cin, cout]`, `b` `[cout]`. */
  conv2d(x: tf.Tensor4D, weight: tf.Variable, bias: tf.Variable | undefined, options?: TapeConv2dOptions): tf.Tensor4D;
}

/** {@link TapeConv2dOptions} with defaults filled in. @internal */
export interface ResolvedConv2d {
  readonly strides: readonly [number, number];
  readonly pad: 'same' | 'valid';
  readonly dilations: readonly [number, number];
}

/** One use of a tape layer during the recording pass. @internal */
export interface TapeEntry {
  readonly kind: 'dense' | 'conv2d';
  /** The layer input, kept past the backward pass; the recorder disposes it. */
  readonly input: tf.Tensor;
  readonly weight: tf.Variable;
  readonly bias?: tf.Variable;
  readonly conv?: ResolvedConv2d;
  /** ∂(Σ losses)/∂(layer output), kept by the backward pass; the recorder disposes it. */
  outputGradient?: tf.Tensor;
}

/** A tape that only computes (the second, reweighted pass). @internal */
export const passThroughTape: PerExampleTape = {
  dense: (x, weight, bias) => denseOp(x, weight, bias),
  conv2d: (x, weight, bias, options = {}) => convOp(x, weight, bias, fullConv(options)),
};

/** A tape that records each layer's input and, in the backward pass, its output gradient. @internal */
export function recordingTape(): { tape: PerExampleTape; entries: TapeEntry[] } {
  const entries: TapeEntry[] = [];
  const tap = <T extends tf.Tensor>(y: T, entry: TapeEntry): T =>
    tf.customGrad(((out: tf.Tensor) => ({
      value: tf.clone(out),
      gradFunc: (dy: tf.Tensor) => {
        entry.outputGradient = tf.keep(tf.clone(dy));
        return dy;
      },
    })) as CustomGradientFunc)(y) as T;
  return {
    entries,
    tape: {
      dense(x, weight, bias) {
        const entry: TapeEntry = { kind: 'dense', input: tf.keep(tf.clone(x)), weight, bias };
        entries.push(entry);
        return tap(denseOp(x, weight, bias), entry);
      },
      conv2d(x, weight, bias, options = {}) {
        const conv = fullConv(options);
        const entry: TapeEntry = { kind: 'conv2d', input: tf.keep(tf.clone(x)), weight, bias, conv };
        entries.push(entry);
        return tap(convOp(x, weight, bias, conv), entry);
      },
    },
  };
}

function denseOp(x: tf.Tensor2D, weight: tf.Variable, bias?: tf.Variable): tf.Tensor2D {
  const y = tf.matMul(x, weight as tf.Tensor2D) as tf.Tensor2D;
  return bias === undefined ? y : (tf.add(y, bias) as tf.Tensor2D);
}

function convOp(x: tf.Tensor4D, weight: tf.Variable, bias: tf.Variable | undefined, o: ResolvedConv2d): tf.Tensor4D {
  const y = tf.conv2d(x, weight as tf.Tensor4D, o.strides as [number, number], o.pad, 'NHWC', o.dilations as [number, number]);
  return bias === undefined ? y : (tf.add(y, bias) as tf.Tensor4D);
}

function fullConv(o: TapeConv2dOptions): ResolvedConv2d {
  const pair = (v: number | readonly [number, number] | undefined): readonly [number, number] =>
    v === undefined ? [1, 1] : typeof v === 'number' ? [v, v] : v;
  return { strides: pair(o.strides), pad: o.pad ?? 'valid', dilations: pair(o.dilations) };
}
