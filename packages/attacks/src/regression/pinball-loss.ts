import * as tf from '@tensorflow/tfjs-core';
import { check } from '@mia/core';

/**
 * The pinball (quantile) loss of predicted τ-quantiles, averaged over every element:
 * `ρ_τ(y − q̂) = τ·max(y − q̂, 0) + (1 − τ)·max(q̂ − y, 0)`. Its minimiser over q̂ is the τ-quantile
 * of y, so a regressor trained with it predicts, per input, the τ-quantile of the target given the
 * input (Koenker & Bassett 1978). Gradient in q̂: `−τ` where y > q̂, `1 − τ` where y < q̂, 0 at a tie.
 *
 * @param predicted - q̂, any shape.
 * @param target - y, the same shape as `predicted` (or broadcastable to it).
 * @param quantile - τ in (0, 1).
 * @returns The mean loss, a scalar.
 * @throws InvalidArgumentError when `quantile` is not in (0, 1).
 * @see Bertran et al., "Scalable Membership Inference Attacks via Quantile Regression", NeurIPS 2023
 *   (the quantile regression objective); the authors' `pinball_loss_fn` (amazon-science/quantile-mia).
 */
export function pinballLoss(predicted: tf.Tensor, target: tf.Tensor, quantile: number): tf.Scalar {
  check(typeof quantile === 'number' && quantile > 0 && quantile < 1, 'pinballLoss', 'quantile', 'a number in (0, 1)', quantile);
  return tf.tidy(() => {
    const delta = tf.sub(target, predicted);
    return tf.mean(tf.add(tf.mul(tf.relu(delta), quantile), tf.mul(tf.relu(tf.neg(delta)), 1 - quantile))) as tf.Scalar;
  });
}
