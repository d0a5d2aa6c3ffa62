import * as tf from '@tensorflow/tfjs-core';
import { fusedCrossEntropy } from './fused-cross-entropy';

/**
 * Per-example softmax cross-entropy from logits, `CE(z, y) = logsumexp(z) − z_y` (stable form,
 * docs/protocol.md §0), shape `[n]`. Where the active backend registers the
 * `MiaSoftmaxCrossEntropy` kernels (`@mia/backend-native` does, bit-equal to the ops below) and the
 * labels are int32, one kernel forward and one backward; elsewhere `oneHot`, `logSumExp`, `mul`,
 * `sum` and `sub` as tfjs ops.
 * @param logits - `[n, C]`.
 * @param labels - int32 `[n]` class indices.
 */
export function crossEntropyPerExample(logits: tf.Tensor2D, labels: tf.Tensor1D): tf.Tensor1D {
  const fused = fusedCrossEntropy(logits, labels, 'none');
  if (fused !== undefined) return fused as tf.Tensor1D;
  return tf.tidy(() => {
    const numClasses = logits.shape[1]!;
    const oneHot = tf.oneHot(tf.cast(labels, 'int32'), numClasses);
    return tf.sub(tf.logSumExp(logits, 1), tf.sum(tf.mul(oneHot, logits), 1)) as tf.Tensor1D;
  });
}

/** Mean softmax cross-entropy from logits (the default training objective); one kernel each way where {@link crossEntropyPerExample} has one. */
export function crossEntropy(logits: tf.Tensor2D, labels: tf.Tensor1D): tf.Scalar {
  const fused = fusedCrossEntropy(logits, labels, 'mean');
  if (fused !== undefined) return fused as tf.Scalar;
  return tf.tidy(() => tf.mean(crossEntropyPerExample(logits, labels)) as tf.Scalar);
}
