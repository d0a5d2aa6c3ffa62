import type * as tf from '@tensorflow/tfjs-core';
import { resolveCclOptions, type CclOptions } from './ccl-options';
import { cclObjective } from './convex-concave-loss';

/** A loss function in the `tf.LayersModel.compile({loss})` signature. */
export type CompileLoss = (yTrue: tf.Tensor, yPred: tf.Tensor) => tf.Scalar;

/**
 * CCL as a loss for `model.compile({optimizer, loss: cclLoss({alpha: 0.5})})` or a custom loop:
 * returns `(yTrue, yPred) → scalar`, where `yTrue` is one-hot `[n, C]` or integer labels
 * `[n]` / `[n, 1]`, and `yPred` are logits (default) or probabilities (`fromLogits: false`, for
 * models ending in softmax). Options are validated once, here.
 *
 * @example
 * model.compile({ optimizer: tf.train.sgd(0.1), loss: cclLoss({ alpha: 0.5, concave: 'quadratic' }) });
 * @throws InvalidArgumentError on bad options (when called), ShapeMismatchError on bad shapes (when the loss runs).
 * @see CCL Eq. 4–6; docs/protocol.md §4.2.
 */
export function cclLoss(options: CclOptions = {}): CompileLoss {
  const resolved = resolveCclOptions('cclLoss', options);
  return (yTrue, yPred) => cclObjective('cclLoss', yPred, yTrue, resolved);
}
