import * as tf from '@tensorflow/tfjs-core';
import type { ExplicitPadding, PerExampleTape, TapeConv2dOptions } from '@mia/core';

export type { PerExampleTape, TapeConv2dOptions } from '@mia/core';

type CustomGradientFunc = Parameters<typeof tf.customGrad>[0];

/** {@link TapeConv2dOptions} with defaults filled in. @internal */
export interface ResolvedConv2d {
  readonly strides: readonly [number, number];
  /** As `tf.conv2d` takes it. */
  readonly pad: 'same' | 'valid' | number | ExplicitPadding;
  readonly dilations: readonly [number, number];
}

/** One use of a tape layer during the recording pass. @internal */
export interface TapeEntry {
  readonly kind: 'dense' | 'conv2d' | 'affine';
  /** The layer input, kept past the backward pass; the recorder disposes it. */
  readonly input: tf.Tensor;
  /** The kernel (dense, conv2d) or the scale γ (affine). */
  readonly weight: tf.Variable;
  /** The bias (dense, conv2d) or the shift β (affine). */
  readonly bias?: tf.Variable;
  readonly conv?: ResolvedConv2d;
  /** ∂(Σ losses)/∂(layer output), kept by the backward pass; the recorder disposes it. */
  outputGradient?: tf.Tensor;
}

/**
 * A tape that records each layer's input and, in the backward pass, its output gradient. A layer
 * applied to `root` (the input the backward pass starts from) skips its input gradient: nothing
 * needs it, and for the first layer of a network it is a matrix product or convolution as costly
 * as the layer itself.
 * @internal
 */
export function recordingTape(root?: tf.Tensor): { tape: PerExampleTape; entries: TapeEntry[] } {
  const entries: TapeEntry[] = [];
  const record = <T extends tf.Tensor>(x: T, entry: TapeEntry, op: (input: T) => tf.Tensor): tf.Tensor => {
    entries.push(entry);
    const capture = (dy: tf.Tensor) => {
      entry.outputGradient = tf.keep(tf.clone(dy));
    };
    if (x === root) {
      return tf.customGrad(((input: T) => ({
        value: op(input),
        gradFunc: (dy: tf.Tensor) => {
          capture(dy);
          return tf.zerosLike(input);
        },
      })) as unknown as CustomGradientFunc)(x);
    }
    return tf.customGrad(((out: tf.Tensor) => ({
      value: tf.clone(out),
      gradFunc: (dy: tf.Tensor) => {
        capture(dy);
        return dy;
      },
    })) as CustomGradientFunc)(op(x));
  };
  const entry = (kind: TapeEntry['kind'], x: tf.Tensor, weight: tf.Variable, bias?: tf.Variable, conv?: ResolvedConv2d): TapeEntry => ({
    kind,
    input: tf.keep(tf.clone(x)),
    weight,
    ...(bias === undefined ? {} : { bias }),
    ...(conv === undefined ? {} : { conv }),
  });
  return {
    entries,
    tape: {
      dense: (x, weight, bias) => record(x, entry('dense', x, weight, bias), (input) => denseOp(input, weight, bias)) as tf.Tensor2D,
      conv2d(x, weight, bias, options = {}) {
        const conv = fullConv(options);
        return record(x, entry('conv2d', x, weight, bias, conv), (input) => convOp(input, weight, bias, conv)) as tf.Tensor4D;
      },
      affine: (x, scale, shift) => record(x, entry('affine', x, scale, shift), (input) => affineOp(input, scale, shift)),
    },
  };
}

function denseOp(x: tf.Tensor2D, weight: tf.Variable, bias?: tf.Variable): tf.Tensor2D {
  const y: tf.Tensor2D = tf.matMul(x, weight as tf.Tensor2D);
  return bias === undefined ? y : (tf.add(y, bias) as tf.Tensor2D);
}

function convOp(x: tf.Tensor4D, weight: tf.Variable, bias: tf.Variable | undefined, o: ResolvedConv2d): tf.Tensor4D {
  const y = tf.conv2d(x, weight as tf.Tensor4D, o.strides as [number, number], o.pad as 'valid', 'NHWC', o.dilations as [number, number]);
  return bias === undefined ? y : (tf.add(y, bias) as tf.Tensor4D);
}

function affineOp(x: tf.Tensor, scale: tf.Variable, shift?: tf.Variable): tf.Tensor {
  const y = tf.mul(x, scale);
  return shift === undefined ? y : tf.add(y, shift);
}

/** Fills the defaults of {@link TapeConv2dOptions}. @internal */
export function fullConv(o: TapeConv2dOptions): ResolvedConv2d {
  const pair = (v: number | readonly [number, number] | undefined): readonly [number, number] =>
    v === undefined ? [1, 1] : typeof v === 'number' ? [v, v] : v;
  return { strides: pair(o.strides), pad: o.pad ?? 'valid', dilations: pair(o.dilations) };
}
