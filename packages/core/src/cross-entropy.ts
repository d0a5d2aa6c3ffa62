import * as tf from '@tensorflow/tfjs-core';

/**
 * Per-example softmax cross-entropy from logits, `CE(z, y) = logsumexp(z) − z_y` (stable form,
 * docs/protocol.md §0), shape `[n]`.
 * @param logits - `[n, C]`.
 * @param labels - int32 `[n]` class indices.
 */
export function crossEntropyPerExample(logits: tf.Tensor2D, labels: tf.Tensor1D): tf.Tensor1D {
  return tf.tidy(() => {
    const numClasses = logits.shape[1]!;
    const oneHot = tf.oneHot(tf.cast(labels, 'int32'), numClasses);
    return tf.sub(tf.logSumExp(logits, 1), tf.sum(tf.mul(oneHot, logits), 1)) as tf.Tensor1D;
  });
}

/** Mean softmax cross-entropy from logits (the default training objective). */
export function crossEntropy(logits: tf.Tensor2D, labels: tf.Tensor1D): tf.Scalar {
  return tf.tidy(() => tf.mean(crossEntropyPerExample(logits, labels)) as tf.Scalar);
}
