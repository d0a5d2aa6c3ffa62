import * as tf from '@tensorflow/tfjs-core';
import { ShapeMismatchError, checkNumberInRange } from '@mia/core';
import { isEvenEpoch } from './epoch-parity';
import { select } from './select-above';
import { normalizeRows } from './normalize-rows';

/** Options of {@link relaxedCenterLoss}. */
export interface RelaxedCenterLossOptions {
  /** Distance threshold α_rcl. */
  readonly alpha: number;
  /** Clamp of the confidence weight, `π_i = min(p_{i,y}, upper)`. @default 1 */
  readonly upper?: number;
  /** Feature/centre normalisation factor τ_rcl; 0 disables normalisation. @default 1 */
  readonly t?: number;
  /** 0-based epoch index of the batch. */
  readonly epoch: number;
  /** Added to `epoch` before the parity test; 1 = CRL's 1-based parity. @default 1 */
  readonly parityOffset?: number;
}

/**
 * Relaxed centre loss of CRL. With `f̃ = f/(1 + t‖f‖)`, `c̃ = c/(1 + t‖c‖)` (row-wise),
 * `D_i = ‖f̃_i − c̃_{y_i}‖²` and `dist = Σ_i D_i/(2B)`:
 * - even epoch: `|dist − α|`;
 * - else if `dist > α`: `dist`;
 * - else: `Σ_i [π_i·D_i + (1 − π_i)·‖f̃_i‖²]/(2B)` with `π_i = clamp(softmax(z_i)_y, 0, upper)`.
 *
 * Differentiable w.r.t. features, logits and centres (the centres' gradient drives their own
 * optimizer; see `crlPlugin`).
 *
 * @param features - penultimate features `[B, d]`.
 * @param logits - raw logits `[B, C]` (only for π).
 * @param labels - int32 `[B]`.
 * @param centers - class centres `[C, d]`.
 * @throws ShapeMismatchError on inconsistent shapes; InvalidArgumentError on bad options.
 * @see CRL Algorithm 1 lines 7–18; docs/protocol.md §4.3, A19.
 */
export function relaxedCenterLoss(
  features: tf.Tensor2D,
  logits: tf.Tensor2D,
  labels: tf.Tensor1D,
  centers: tf.Tensor2D,
  options: RelaxedCenterLossOptions,
): tf.Scalar {
  return tf.tidy(() => relaxedCenterLossTerms(features, logits, labels, centers, options).loss);
}

/** {@link relaxedCenterLoss} plus the distance `dist` its branches test (for the relaxation counter). @internal */
export function relaxedCenterLossTerms(
  features: tf.Tensor2D,
  logits: tf.Tensor2D,
  labels: tf.Tensor1D,
  centers: tf.Tensor2D,
  options: RelaxedCenterLossOptions,
): { loss: tf.Scalar; value: tf.Scalar } {
  const fn = 'relaxedCenterLoss';
  const upper = options.upper ?? 1;
  const t = options.t ?? 1;
  checkNumberInRange(fn, 'alpha', options.alpha, 0);
  checkNumberInRange(fn, 'upper', upper, 0, 1);
  checkNumberInRange(fn, 't', t, 0);
  const [b, d] = features.shape;
  const [numClasses, dc] = centers.shape;
  if (features.rank !== 2 || centers.rank !== 2 || dc !== d || labels.shape[0] !== b || logits.shape[0] !== b || logits.shape[1] !== numClasses) {
    throw new ShapeMismatchError(
      `${fn}: expected features [B, d], logits [B, C], labels [B], centers [C, d], got [${features.shape.join(', ')}], [${logits.shape.join(', ')}], [${labels.shape.join(', ')}], [${centers.shape.join(', ')}]`,
    );
  }
  const even = isEvenEpoch(fn, options.epoch, options.parityOffset ?? 1);
  return tf.tidy(() => {
    const f = normalizeRows(features, t);
    const c = tf.gather(normalizeRows(centers, t), tf.cast(labels, 'int32'));
    const sq = tf.sum(tf.square(tf.sub(f, c)), 1);
    const dist = tf.div(tf.sum(sq), 2 * b!) as tf.Scalar;
    if (even) return { loss: tf.abs(tf.sub(dist, options.alpha)) as tf.Scalar, value: dist };
    const oneHot = tf.oneHot(tf.cast(labels, 'int32'), numClasses!);
    const pi = tf.clipByValue(tf.sum(tf.mul(oneHot, tf.softmax(logits)), 1), 0, upper);
    const relaxed = tf.div(tf.sum(tf.add(tf.mul(pi, sq), tf.mul(tf.sub(1, pi), tf.sum(tf.square(f), 1)))), 2 * b!);
    return { loss: select(dist, options.alpha, relaxed as tf.Scalar), value: dist };
  });
}
