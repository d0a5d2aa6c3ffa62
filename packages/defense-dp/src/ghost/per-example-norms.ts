import * as tf from '@tensorflow/tfjs-core';
import type { ResolvedConv2d, TapeEntry } from './per-example-tape';

/**
 * Squared per-example gradient norm `[n]` of one tape layer's weight and bias, from the layer input
 * and output gradient alone (no per-example gradient of a dense layer is formed):
 * - dense: ‖aᵢ gᵢᵀ‖² = ‖aᵢ‖²·‖gᵢ‖² (Goodfellow 2015, "Efficient Per-Example Gradient Computations",
 *   arXiv:1510.01799); bias ‖gᵢ‖².
 * - conv2d: with Aᵢ the unfolded input patches `[T, K]` and Gᵢ the output gradient `[T, cout]`, the
 *   weight gradient is AᵢᵀGᵢ; its squared norm is ⟨AᵢAᵢᵀ, GᵢGᵢᵀ⟩ ("ghost clipping", Li et al. 2022,
 *   arXiv:2110.05679) when T² < K·cout, otherwise ‖AᵢᵀGᵢ‖² formed per example (whichever is cheaper,
 *   as Bu et al. 2022 choose); bias ‖Σₜ Gᵢₜ‖².
 * @internal
 */
export function squaredNormsOf(entry: TapeEntry): tf.Tensor1D {
  return tf.tidy(() => {
    const g = entry.outputGradient!;
    const n = g.shape[0]!;
    let weightSq: tf.Tensor1D;
    let biasSq: tf.Tensor1D | undefined;
    if (entry.kind === 'dense') {
      weightSq = tf.mul(tf.sum(tf.square(entry.input), 1), tf.sum(tf.square(g), 1)) as tf.Tensor1D;
      if (entry.bias !== undefined) biasSq = tf.sum(tf.square(g), 1) as tf.Tensor1D;
    } else {
      const patches = unfold(entry.input as tf.Tensor4D, entry.weight.shape as [number, number, number, number], entry.conv!);
      const [, t, k] = patches.shape;
      const cout = g.shape[3]!;
      const grads = tf.reshape(g, [n, t, cout]) as tf.Tensor3D;
      weightSq = (
        t * t < k * cout
          ? tf.sum(tf.mul(tf.matMul(patches, patches, false, true), tf.matMul(grads, grads, false, true)), [1, 2])
          : tf.sum(tf.square(tf.matMul(patches, grads, true, false)), [1, 2])
      ) as tf.Tensor1D;
      if (entry.bias !== undefined) biasSq = tf.sum(tf.square(tf.sum(grads, 1)), 1) as tf.Tensor1D;
    }
    return biasSq === undefined ? weightSq : (tf.add(weightSq, biasSq) as tf.Tensor1D);
  });
}

/**
 * The im2col patches `[n, T, kh·kw·cin]` of a convolution's input, ordered like the flattened
 * kernel `[kh, kw, cin]`, for the layer's own stride, padding (tfjs' 'same': the smaller half
 * before) and dilation: one strided slice per kernel offset, concatenated along channels. Equal to a
 * convolution with a one-hot kernel `[kh, kw, cin, kh·kw·cin]`, without its K² multiply-adds.
 * @internal
 */
export function unfold(x: tf.Tensor4D, kernelShape: readonly [number, number, number, number], o: ResolvedConv2d): tf.Tensor3D {
  return tf.tidy(() => {
    const [n, h, w, cin] = x.shape;
    const [kh, kw] = kernelShape;
    const [sh, sw] = o.strides;
    const [dh, dw] = o.dilations;
    const span = (k: number, d: number) => (k - 1) * d + 1;
    const outH = o.pad === 'same' ? Math.ceil(h / sh) : Math.ceil((h - span(kh, dh) + 1) / sh);
    const outW = o.pad === 'same' ? Math.ceil(w / sw) : Math.ceil((w - span(kw, dw) + 1) / sw);
    const padH = o.pad === 'same' ? Math.max((outH - 1) * sh + span(kh, dh) - h, 0) : 0;
    const padW = o.pad === 'same' ? Math.max((outW - 1) * sw + span(kw, dw) - w, 0) : 0;
    const padded =
      padH + padW === 0
        ? x
        : tf.pad(x, [
            [0, 0],
            [Math.floor(padH / 2), padH - Math.floor(padH / 2)],
            [Math.floor(padW / 2), padW - Math.floor(padW / 2)],
            [0, 0],
          ]);
    const slices: tf.Tensor4D[] = [];
    for (let p = 0; p < kh; p++) {
      for (let q = 0; q < kw; q++) {
        const begin = [0, p * dh, q * dw, 0];
        const end = [n, p * dh + (outH - 1) * sh + 1, q * dw + (outW - 1) * sw + 1, cin];
        slices.push(tf.stridedSlice(padded, begin, end, [1, sh, sw, 1]) as tf.Tensor4D);
      }
    }
    return tf.reshape(tf.concat(slices, 3), [n, outH * outW, kh * kw * cin]) as tf.Tensor3D;
  });
}
