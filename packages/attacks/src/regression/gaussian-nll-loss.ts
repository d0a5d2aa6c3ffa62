import * as tf from '@tensorflow/tfjs-core';
import { ShapeMismatchError } from '@mia/core';

/**
 * The negative log-likelihood of y under N(μ, σ²) with σ = exp(s), without the constant ½·log 2π,
 * averaged over the rows: `mean(s + ½·exp(−2s)·(y − μ)²)`. A regressor trained with it predicts a
 * per-input Gaussian of the target; its τ-quantile is `μ + σ·Φ⁻¹(τ)`. Gradients:
 * `∂/∂μ = −exp(−2s)·(y − μ)`, `∂/∂s = 1 − exp(−2s)·(y − μ)²` (per row, divided by the row count).
 *
 * @param predicted - `[n, 2]`: column 0 is μ, column 1 is s = log σ.
 * @param target - y, `[n]`.
 * @returns The mean loss, a scalar.
 * @throws ShapeMismatchError when `predicted` is not `[n, 2]` with n = `target.size`.
 * @see Bertran et al., NeurIPS 2023, the Gaussian parameterisation of the quantile model in the
 *   authors' code (`gaussian_loss_fn`, `use_gaussian`, amazon-science/quantile-mia).
 */
export function gaussianNllLoss(predicted: tf.Tensor, target: tf.Tensor): tf.Scalar {
  if (predicted.rank !== 2 || predicted.shape[1] !== 2 || predicted.shape[0] !== target.size) {
    throw new ShapeMismatchError(`gaussianNllLoss: predicted must be [${target.size}, 2] (μ, log σ), got [${predicted.shape.join(', ')}]`);
  }
  return tf.tidy(() => {
    const [mu, logStd] = tf.split(predicted, 2, 1) as [tf.Tensor2D, tf.Tensor2D];
    const y = tf.reshape(target, [-1, 1]);
    return tf.mean(tf.add(logStd, tf.mul(0.5, tf.mul(tf.exp(tf.mul(-2, logStd)), tf.square(tf.sub(y, mu)))))) as tf.Scalar;
  });
}
