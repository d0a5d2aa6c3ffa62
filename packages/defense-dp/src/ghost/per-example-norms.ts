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
 * kernel `[kh, kw, cin]`: a convolution with a one-hot kernel `[kh, kw, cin, kh·kw·cin]` and the
 * layer's own stride, padding and dilation.
 */
function unfold(x: tf.Tensor4D, kernelShape: [number, number, number, number], o: ResolvedConv2d): tf.Tensor3D {
  const [kh, kw, cin] = kernelShape;
  const k = kh * kw * cin;
  const eye = tf.reshape(tf.oneHot(tf.range(0, k, 1, 'int32'), k, 1, 0, 'float32'), [kh, kw, cin, k]) as tf.Tensor4D;
  const patches = tf.conv2d(x, eye, o.strides as [number, number], o.pad, 'NHWC', o.dilations as [number, number]);
  return tf.reshape(patches, [x.shape[0], patches.shape[1]! * patches.shape[2]!, k]);
}
