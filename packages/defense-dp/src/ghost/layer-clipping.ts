import * as tf from '@tensorflow/tfjs-core';
import type { TapeEntry } from './per-example-tape';
import { patchViews } from './patch-views';

/** What one tape layer contributes to a DP-SGD step. @internal */
export interface LayerClipping {
  /** Squared per-example gradient norm `[n]` of the layer's variables (weight and bias together). */
  readonly squared: tf.Tensor1D;
  /** Σᵢ cᵢ·gᵢ for the weight, then the bias (if any), in the variables' shapes, for clip factors `c` `[n]`. */
  clippedSums(factors: tf.Tensor1D): tf.Tensor[];
}

/**
 * The per-example gradient norms of one tape layer and, once the clip factors are known, the
 * clipped gradient sums of its variables — from the layer's input `a` and output gradient `g`
 * recorded in one backward pass, with no second pass (the "book-keeping" of Bu et al. 2023,
 * arXiv:2210.00038: the weight gradient of Σᵢ cᵢ·lossᵢ is the layer's weight gradient with `g`
 * scaled per example by `cᵢ`):
 * - dense: ‖aᵢgᵢᵀ‖² = ‖aᵢ‖²·‖gᵢ‖² (Goodfellow 2015, arXiv:1510.01799), bias ‖gᵢ‖²; sum `aᵀ·(c⊙g)`.
 * - conv2d: with Aᵢ the input patches `[T, K]` ({@link patchViews}) and Gᵢ the output gradient `[T, cout]`, the
 *   weight gradient is AᵢᵀGᵢ; its squared norm is ⟨AᵢAᵢᵀ, GᵢGᵢᵀ⟩ ("ghost clipping", Li et al. 2022,
 *   arXiv:2110.05679) when 2T² < K·cout, otherwise ‖AᵢᵀGᵢ‖² from the per-example gradient (the
 *   layer-wise choice of Bu et al. 2022, arXiv:2205.10683: the ghost norm costs T²·(K + cout) per
 *   example, the per-example gradient T·K·cout and K·cout floats); the sum is then the convolution's
 *   filter gradient of `c⊙g`, or Σᵢ cᵢ·AᵢᵀGᵢ. Bias: ‖Σₜ Gᵢₜ‖².
 * - affine (`x·γ + β` per channel): per-example gradients Σ_spatial gᵢ⊙xᵢ and Σ_spatial gᵢ `[n, c]`.
 * Tensors kept for `clippedSums` belong to the caller's `tf.tidy`.
 * @internal
 */
export function layerClipping(entry: TapeEntry): LayerClipping {
  if (entry.kind === 'dense') return denseClipping(entry);
  if (entry.kind === 'conv2d') return convClipping(entry);
  return affineClipping(entry);
}

/** `[1, n] × [n, m]`: Σᵢ cᵢ·rowᵢ, reshaped to `shape`. */
function weightedRowSum(factors: tf.Tensor1D, rows: tf.Tensor, shape: readonly number[]): tf.Tensor {
  const n = factors.shape[0];
  return tf.reshape(tf.matMul(tf.reshape(factors, [1, n]), tf.reshape(rows, [n, -1])), shape as number[]);
}

const scaleRows = (factors: tf.Tensor1D, g: tf.Tensor): tf.Tensor => tf.mul(g, tf.reshape(factors, [factors.shape[0], ...g.shape.slice(1).map(() => 1)]));

function denseClipping(entry: TapeEntry): LayerClipping {
  const a = entry.input as tf.Tensor2D;
  const g = entry.outputGradient! as tf.Tensor2D;
  const squared = tf.tidy(() => {
    const gSq = tf.sum(tf.square(g), 1);
    const wSq = tf.mul(tf.sum(tf.square(a), 1), gSq);
    return (entry.bias === undefined ? wSq : tf.add(wSq, gSq)) as tf.Tensor1D;
  });
  return {
    squared,
    clippedSums: (factors) =>
      tf.tidy(() => {
        const weight = tf.matMul(a, scaleRows(factors, g) as tf.Tensor2D, true, false);
        return entry.bias === undefined ? [weight] : [weight, weightedRowSum(factors, g, entry.bias.shape)];
      }),
  };
}

function convClipping(entry: TapeEntry): LayerClipping {
  const x = entry.input as tf.Tensor4D;
  const g = entry.outputGradient! as tf.Tensor4D;
  const conv = entry.conv!;
  const kernelShape = entry.weight.shape as [number, number, number, number];
  const [, outH, outW, cout] = g.shape;
  const t = outH * outW;
  const k = kernelShape[0] * kernelShape[1] * kernelShape[2];
  const ghost = 2 * t * t < k * cout;
  // The per-example bias gradients Σₜ Gᵢₜ [n, cout] are small: kept for the sum.
  const [squared, perExampleWeight, perExampleBias] = tf.tidy(() => {
    const { views, grads } = patchViews(x, g, kernelShape, conv);
    let weightSq: tf.Tensor;
    let perExample: tf.Tensor | undefined;
    if (ghost) {
      const gramA = views.length === 1 ? tf.matMul(views[0]!, views[0]!, false, true) : tf.addN(views.map((v) => tf.matMul(v, v, false, true)));
      weightSq = tf.sum(tf.mul(gramA, tf.matMul(grads, grads, false, true)), [1, 2]);
    } else {
      const blocks = views.map((v) => tf.matMul(v, grads, true, false));
      perExample = blocks.length === 1 ? blocks[0]! : tf.concat(blocks, 1);
      weightSq = tf.sum(tf.square(perExample), [1, 2]);
    }
    const bias = entry.bias === undefined ? undefined : tf.sum(grads, 1);
    const sq = bias === undefined ? weightSq : tf.add(weightSq, tf.sum(tf.square(bias), 1));
    return [sq as tf.Tensor1D, perExample, bias] as const;
  });
  return {
    squared,
    clippedSums: (factors) =>
      tf.tidy(() => {
        // (Dilated convolutions never get here: tfjs has no gradient for them, so the backward pass failed.)
        const weight =
          perExampleWeight !== undefined
            ? weightedRowSum(factors, perExampleWeight, kernelShape)
            : filterGradient(x, scaleRows(factors, g) as tf.Tensor4D, kernelShape, entry);
        return perExampleBias === undefined ? [weight] : [weight, weightedRowSum(factors, perExampleBias, [cout])];
      }),
  };
}

/** The `Conv2DBackpropFilter` kernel (what `tf.conv2d`'s gradient runs): Σᵢ xᵢ ⋆ dyᵢ as `[kh, kw, cin, cout]`. */
function filterGradient(x: tf.Tensor4D, dy: tf.Tensor4D, kernelShape: readonly number[], entry: TapeEntry): tf.Tensor {
  const attrs = { strides: entry.conv!.strides, pad: entry.conv!.pad, dataFormat: 'NHWC', dimRoundingMode: undefined, filterShape: kernelShape };
  return tf.engine().runKernel(tf.Conv2DBackpropFilter, { x, dy } as unknown as tf.NamedTensorMap, attrs as unknown as tf.NamedAttrMap) as tf.Tensor;
}

function affineClipping(entry: TapeEntry): LayerClipping {
  const x = entry.input;
  const g = entry.outputGradient!;
  const [perExampleScale, perExampleShift, squared] = tf.tidy(() => {
    const n = g.shape[0]!;
    const c = g.shape[g.rank - 1]!;
    const scale = tf.sum(tf.reshape(tf.mul(g, x), [n, -1, c]), 1);
    const shift = entry.bias === undefined ? undefined : tf.sum(tf.reshape(g, [n, -1, c]), 1);
    const sq = tf.sum(tf.square(scale), 1);
    return [scale, shift, (shift === undefined ? sq : tf.add(sq, tf.sum(tf.square(shift), 1))) as tf.Tensor1D] as const;
  });
  return {
    squared,
    clippedSums: (factors) =>
      tf.tidy(() => {
        const scale = weightedRowSum(factors, perExampleScale, entry.weight.shape);
        return perExampleShift === undefined ? [scale] : [scale, weightedRowSum(factors, perExampleShift, entry.bias!.shape)];
      }),
  };
}
