import * as tf from '@tensorflow/tfjs-core';
import { ShapeMismatchError, checkNumberInRange } from '@mia/core';
import { isEvenEpoch } from './epoch-parity';
import { select } from './select-above';
import { checkAboveLogitFloor } from './logit-normalization-floor';
import { normalizeRows } from './normalize-rows';

/** Options of {@link impRelaxLoss}. */
export interface ImpRelaxLossOptions {
  /** Threshold α_rce on the batch CE of the normalised logits; must exceed the floor for (t, C). */
  readonly alpha: number;
  /** Clamp of the true-class soft target, `q_y = min(p_y, upper)`. @default 1 */
  readonly upper?: number;
  /** Logit normalisation factor τ_rce; 0 disables normalisation (plain RelaxLoss-style CE). @default 1 */
  readonly t?: number;
  /** 0-based epoch index of the batch (as in `@mia/core`'s `train`). */
  readonly epoch: number;
  /** Added to `epoch` before the parity test; 1 = CRL's 1-based parity. @default 1 */
  readonly parityOffset?: number;
}

/**
 * ImpRelaxLoss, the relaxed cross-entropy of CRL on normalised logits `z̃ = z/(1 + t‖z‖)`:
 * with `ℓ = mean CE(z̃, y)`,
 * - even epoch: `|ℓ − α|` (gradient ascent below α);
 * - else if `ℓ > α`: `ℓ`;
 * - else: `mean_i softCE(z̃_i, q_i)` with `q_{i,y} = clamp(softmax(z_i)_y, 0, upper)` from the
 *   **un-normalised** logits and `q_{i,j≠y} = (1 − q_{i,y})/(C − 1)`; q is not detached.
 *
 * The `ℓ > α` test runs on the device (a zero-gradient step mask), so the loss needs no synchronisation.
 *
 * @param logits - `[n, C]` raw logits.
 * @param labels - int32 `[n]` labels.
 * @returns the scalar loss.
 * @throws InvalidArgumentError when `alpha` is not above the logit-normalisation floor (A18) or an option is out of range.
 * @see CRL Eq. 5–9, Algorithm 1; docs/protocol.md §4.3, §6 items 33–34, A18, A21.
 */
export function impRelaxLoss(logits: tf.Tensor2D, labels: tf.Tensor1D, options: ImpRelaxLossOptions): tf.Scalar {
  return tf.tidy(() => impRelaxLossTerms(logits, labels, options).loss);
}

/** {@link impRelaxLoss} plus the batch CE `ℓ` its branches test (for the relaxation counter). @internal */
export function impRelaxLossTerms(logits: tf.Tensor2D, labels: tf.Tensor1D, options: ImpRelaxLossOptions): { loss: tf.Scalar; value: tf.Scalar } {
  const fn = 'impRelaxLoss';
  const { alpha } = options;
  const upper = options.upper ?? 1;
  const t = options.t ?? 1;
  checkNumberInRange(fn, 'alpha', alpha, 0);
  checkNumberInRange(fn, 'upper', upper, 0, 1);
  checkNumberInRange(fn, 't', t, 0);
  if (logits.rank !== 2 || labels.rank !== 1 || labels.shape[0] !== logits.shape[0]) {
    throw new ShapeMismatchError(`${fn}: logits must be [n, C] and labels [n], got [${logits.shape.join(', ')}] and [${labels.shape.join(', ')}]`);
  }
  const numClasses = logits.shape[1]!;
  checkAboveLogitFloor(fn, alpha, t, numClasses);
  const even = isEvenEpoch(fn, options.epoch, options.parityOffset ?? 1);
  return tf.tidy(() => {
    const oneHot = tf.oneHot(tf.cast(labels, 'int32'), numClasses);
    const logProbs = tf.logSoftmax(normalizeRows(logits, t));
    const ce = tf.neg(tf.mean(tf.sum(tf.mul(oneHot, logProbs), 1))) as tf.Scalar;
    if (even) return { loss: tf.abs(tf.sub(ce, alpha)) as tf.Scalar, value: ce };
    const py = tf.clipByValue(tf.sum(tf.mul(oneHot, tf.softmax(logits)), 1, true), 0, upper);
    const soft = tf.add(tf.mul(oneHot, py), tf.mul(tf.sub(1, oneHot), tf.div(tf.sub(1, py), numClasses - 1)));
    const softCe = tf.neg(tf.mean(tf.sum(tf.mul(soft, logProbs), 1)));
    return { loss: select(ce, alpha, softCe as tf.Scalar), value: ce };
  });
}
