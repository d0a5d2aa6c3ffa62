import * as tf from '@tensorflow/tfjs-core';

/**
 * Per-example soft-label cross-entropy `softCE(z, q) = −Σ_j q_j · log softmax(z)_j`, shape `[n]`.
 * Gradients flow into both `logits` and `targets` (wrap `targets` in `tf.stopGradient` to detach).
 *
 * @param logits - `[n, C]` logits.
 * @param targets - `[n, C]` target distributions (rows are not checked to sum to 1).
 * @returns `[n]` per-example losses; the caller disposes it.
 * @see docs/protocol.md §4.5 (RelaxLoss posterior flattening), §4.14 (SELENA distillation).
 */
export function softCrossEntropyPerExample(logits: tf.Tensor2D, targets: tf.Tensor2D): tf.Tensor1D {
  return tf.tidy(() => tf.neg(tf.sum(tf.mul(targets, tf.logSoftmax(logits)), 1)) as tf.Tensor1D);
}

/** Mean of {@link softCrossEntropyPerExample} over the batch. */
export function softCrossEntropy(logits: tf.Tensor2D, targets: tf.Tensor2D): tf.Scalar {
  return tf.tidy(() => tf.mean(softCrossEntropyPerExample(logits, targets)) as tf.Scalar);
}
