import * as tf from '@tensorflow/tfjs-core';
import { ShapeMismatchError } from '@mia/core';
import { resolveCclOptions, type CclOptions, type ResolvedCclOptions } from './ccl-options';

const PROBABILITY_FLOOR = 1e-12;

/**
 * Per-example CCL objective (before the mean and β), `[n]`:
 * `α·CE_i + s·(1 − α)·f(p_i)` with `p_i = exp(−CE_i)` (gradient flows through p_i, as in the
 * code), or `α·(1 − p_i)^γ·CE_i + s·(1 − α)·f(p_i)` for the focal base. `s = +1`, or `−1` for the
 * focal variant with the code's sign.
 *
 * @param predictions - logits (or probabilities when `fromLogits: false`), `[n, C]`.
 * @param targets - one-hot (or soft) targets `[n, C]`, or integer labels `[n]` / `[n, 1]`.
 * @throws ShapeMismatchError when the shapes disagree.
 * @see CCL Eq. 4–6 and App. D; docs/protocol.md §4.2.
 */
export function convexConcaveLossPerExample(predictions: tf.Tensor, targets: tf.Tensor, options: CclOptions = {}): tf.Tensor1D {
  return cclPerExample('convexConcaveLossPerExample', predictions, targets, resolveCclOptions('convexConcaveLossPerExample', options));
}

function cclPerExample(fn: string, predictions: tf.Tensor, targets: tf.Tensor, o: ResolvedCclOptions): tf.Tensor1D {
  return tf.tidy(() => {
    const logProbs = logProbabilities(fn, predictions, o.fromLogits);
    const oneHot = targetsAsOneHot(fn, targets, logProbs.shape[0]!, logProbs.shape[1]!);
    const ce = tf.neg(tf.sum(tf.mul(oneHot, logProbs), 1));
    const p = tf.exp(tf.neg(ce));
    const convex = o.base === 'focal' ? tf.mul(tf.pow(tf.sub(1, p), o.gamma), ce) : ce;
    return tf.add(tf.mul(convex, o.alpha), tf.mul(o.concave.value(p), o.concaveSign * (1 - o.alpha))) as tf.Tensor1D;
  });
}

/**
 * The CCL loss of a batch, `β·mean_i[α·CE_i + (1 − α)·f(p_i)]` (CCEL, CCQL, custom f, or the
 * focal variant), a scalar.
 *
 * @param predictions - logits (or probabilities when `fromLogits: false`), `[n, C]`.
 * @param targets - one-hot (or soft) targets `[n, C]`, or integer labels `[n]` / `[n, 1]`.
 * @returns the scalar loss; differentiable w.r.t. `predictions`.
 * @throws InvalidArgumentError on bad options; ShapeMismatchError on mismatched shapes.
 * @see CCL Eq. 4–6 and App. D–E; docs/protocol.md §4.2 and A17 (β multiplies the whole mean).
 */
export function convexConcaveLoss(predictions: tf.Tensor, targets: tf.Tensor, options: CclOptions = {}): tf.Scalar {
  return cclObjective('convexConcaveLoss', predictions, targets, resolveCclOptions('convexConcaveLoss', options));
}

/** {@link convexConcaveLoss} with options already resolved (validated once by the factories). @internal */
export function cclObjective(fn: string, predictions: tf.Tensor, targets: tf.Tensor, o: ResolvedCclOptions): tf.Scalar {
  return tf.tidy(() => tf.mul(tf.mean(cclPerExample(fn, predictions, targets, o)), o.scale) as tf.Scalar);
}

function logProbabilities(fn: string, predictions: tf.Tensor, fromLogits: boolean): tf.Tensor2D {
  if (predictions.rank !== 2) throw new ShapeMismatchError(`${fn}: predictions must be [n, C], got shape [${predictions.shape.join(', ')}]`);
  const x = tf.cast(predictions, 'float32') as tf.Tensor2D;
  return fromLogits ? tf.logSoftmax(x) : tf.log(tf.clipByValue(x, PROBABILITY_FLOOR, 1));
}

/** One-hot `[n, C]` from integer labels `[n]` / `[n, 1]`, or the given `[n, C]` targets. */
function targetsAsOneHot(fn: string, targets: tf.Tensor, n: number, numClasses: number): tf.Tensor2D {
  const isIndex = targets.rank === 1 || (targets.rank === 2 && targets.shape[1] === 1 && numClasses > 1);
  if (isIndex) {
    if (targets.shape[0] !== n) throw new ShapeMismatchError(`${fn}: targets must have ${n} labels, got shape [${targets.shape.join(', ')}]`);
    return tf.cast(tf.oneHot(tf.cast(tf.reshape(targets, [n]), 'int32'), numClasses), 'float32') as tf.Tensor2D;
  }
  if (targets.rank !== 2 || targets.shape[0] !== n || targets.shape[1] !== numClasses) {
    throw new ShapeMismatchError(`${fn}: targets must be one-hot [${n}, ${numClasses}] or labels [${n}], got shape [${targets.shape.join(', ')}]`);
  }
  return tf.cast(targets, 'float32') as tf.Tensor2D;
}
