import * as tf from '@tensorflow/tfjs-core';
import { ShapeMismatchError, checkNumberInRange, crossEntropyPerExample } from '@mia/core';

/**
 * Biased squared maximum mean discrepancy with an RBF kernel `k(a, b) = exp(−‖a − b‖²/(2σ²))`:
 * `MMD² = mean K_PP + mean K_QQ − 2·mean K_PQ`, diagonals included (the biased V-statistic).
 * Mixup+MMD passes `P = softmax(f(x_train))` and a detached `Q = softmax(f(x_val))`.
 *
 * @param p - `[n, d]` samples. @param q - `[m, d]` samples.
 * @param sigma - kernel bandwidth σ > 0. @default 1
 * @returns the scalar MMD² (the caller disposes it).
 * @throws ShapeMismatchError when the inputs are not 2-D with the same width.
 * @see docs/protocol.md §4.6 step 3, A35 (MLHospital `MixupMMD.py`); Li et al. 2021.
 */
export function mmdSquaredBiased(p: tf.Tensor2D, q: tf.Tensor2D, sigma = 1): tf.Scalar {
  if (p.rank !== 2 || q.rank !== 2 || p.shape[1] !== q.shape[1]) {
    throw new ShapeMismatchError(`mmdSquaredBiased: p and q must be [n, d] and [m, d], got [${p.shape.join(', ')}] and [${q.shape.join(', ')}]`);
  }
  checkNumberInRange('mmdSquaredBiased', 'sigma', sigma, Number.MIN_VALUE);
  return tf.tidy(() => {
    const kernelMean = (a: tf.Tensor2D, b: tf.Tensor2D) => {
      // ‖a_i − b_j‖² by broadcasting ([n, 1, d] − [1, m, d]); exact, unlike the expanded form.
      const diff = tf.sub(tf.expandDims(a, 1), tf.expandDims(b, 0));
      return tf.mean(tf.exp(tf.div(tf.sum(tf.square(diff), 2), -2 * sigma * sigma)));
    };
    return tf.sub(tf.add(kernelMean(p, p), kernelMean(q, q)), tf.mul(kernelMean(p, q), 2)) as tf.Scalar;
  });
}

/**
 * The mixup objective `λ·CE(f(x̃), y_a) + (1 − λ)·CE(f(x̃), y_b)` (Zhang et al. 2018), where
 * `x̃ = λ·x_a + (1 − λ)·x_b` produced `logits`.
 * @param logits - `[n, C]` logits of the mixed batch.
 * @param labelsA - int32 `[n]` labels of the first batch.
 * @param labelsB - int32 `[n]` labels of the permuted batch.
 * @param lambda - mixing weight in [0, 1].
 * @returns the mean loss (the caller disposes it).
 * @see docs/protocol.md §4.6 step 1.
 */
export function mixupLoss(logits: tf.Tensor2D, labelsA: tf.Tensor1D, labelsB: tf.Tensor1D, lambda: number): tf.Scalar {
  checkNumberInRange('mixupLoss', 'lambda', lambda, 0, 1);
  if (labelsA.shape[0] !== logits.shape[0] || labelsB.shape[0] !== logits.shape[0]) {
    throw new ShapeMismatchError(`mixupLoss: labelsA and labelsB must have ${logits.shape[0]} entries, got ${labelsA.shape[0]} and ${labelsB.shape[0]}`);
  }
  return tf.tidy(() => {
    const a = tf.mean(crossEntropyPerExample(logits, labelsA));
    const b = tf.mean(crossEntropyPerExample(logits, labelsB));
    return tf.add(tf.mul(a, lambda), tf.mul(b, 1 - lambda)) as tf.Scalar;
  });
}
