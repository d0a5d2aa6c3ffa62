import * as tf from '@tensorflow/tfjs-core';
import { ShapeMismatchError, check, checkNumberInRange } from '@mia/core';

/** Options of {@link distillationKlLoss}. */
export interface DistillationKlOptions {
  /** Softmax temperature τ > 0. @default 1 */
  readonly temperature?: number;
  /**
   * `'mean'`: the sum over all entries divided by n·C (PyTorch `kl_div(..., 'mean')`, as in CRLr);
   * `'batchmean'`: divided by n (the true mean KL per example). @default 'mean'
   */
  readonly reduction?: 'mean' | 'batchmean';
}

/**
 * The DMP distillation loss `KL(softmax(u/τ) ‖ softmax(z/τ))` between teacher logits `u` (constant)
 * and student logits `z`: `Σ_j q_j·(log q_j − log softmax(z/τ)_j)`, reduced as PyTorch
 * `kl_div(log_softmax(z/τ), softmax(u/τ), reduction)`.
 * @param studentLogits - `[n, C]`. @param teacherLogits - `[n, C]`.
 * @returns the scalar loss (the caller disposes it).
 * @throws ShapeMismatchError on different shapes; InvalidArgumentError on a bad τ or reduction.
 * @see docs/protocol.md §4.13, §6 item 39 (CRLr `mia/vanilla_dmp.py`).
 */
export function distillationKlLoss(studentLogits: tf.Tensor2D, teacherLogits: tf.Tensor2D, options: DistillationKlOptions = {}): tf.Scalar {
  if (studentLogits.rank !== 2 || studentLogits.shape.join() !== teacherLogits.shape.join()) {
    throw new ShapeMismatchError(
      `distillationKlLoss: studentLogits and teacherLogits must have the same shape [n, C], got [${studentLogits.shape.join(', ')}] and [${teacherLogits.shape.join(', ')}]`,
    );
  }
  const tau = options.temperature ?? 1;
  checkNumberInRange('distillationKlLoss', 'temperature', tau, Number.MIN_VALUE);
  const reduction = options.reduction ?? 'mean';
  check(reduction === 'mean' || reduction === 'batchmean', 'distillationKlLoss', 'reduction', "'mean' or 'batchmean'", reduction);
  return tf.tidy(() => {
    const logQ = tf.logSoftmax(tf.div(teacherLogits, tau));
    const pointwise = tf.mul(tf.exp(logQ), tf.sub(logQ, tf.logSoftmax(tf.div(studentLogits, tau))));
    const divisor = reduction === 'mean' ? pointwise.size : studentLogits.shape[0]!;
    return tf.div(tf.sum(pointwise), divisor) as tf.Scalar;
  });
}
