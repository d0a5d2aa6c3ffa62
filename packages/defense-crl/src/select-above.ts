import * as tf from '@tensorflow/tfjs-core';

/**
 * `value > threshold ? value : otherwise`, on the device and differentiable: the mask comes from
 * `tf.step`, whose gradient is zero (tfjs has no gradient for `Greater`, which `tf.where` would
 * need on the tape). Both branches must be finite.
 * @internal
 */
export function select(value: tf.Scalar, threshold: number, otherwise: tf.Scalar): tf.Scalar {
  return tf.tidy(() => {
    const mask = tf.step(tf.sub(value, threshold));
    return tf.add(tf.mul(mask, value), tf.mul(tf.sub(1, mask), otherwise)) as tf.Scalar;
  });
}
