import * as tf from '@tensorflow/tfjs-core';
import { crossEntropyPerExample, option, optionsSchema, type TrainingPlugin } from '@mia/core';
import { checkLogitsAndLabels } from './check-logits';

/** Options of {@link confidencePenaltyLoss} and {@link confidencePenaltyPlugin}. */
export interface ConfidencePenaltyOptions {
  /** Penalty weight β ≥ 0. @default 0.1 */
  readonly beta?: number;
}

function penalised(logits: tf.Tensor2D, labels: tf.Tensor1D, beta: number): tf.Scalar {
  return tf.tidy(() => {
    const logP = tf.logSoftmax(logits);
    const negEntropy = tf.sum(tf.mul(tf.exp(logP), logP), 1);
    return tf.mean(tf.add(crossEntropyPerExample(logits, labels), tf.mul(negEntropy, beta))) as tf.Scalar;
  });
}

/** The schema of {@link ConfidencePenaltyOptions} (validation, defaults, JSON Schema; unknown keys are errors). @see docs/protocol.md §4.9 */
export const confidencePenaltyOptionsSchema = optionsSchema({
  beta: option.number({ min: 0, default: 0.1, description: 'Penalty weight β on the negative entropy.' }),
});

function resolveBeta(fn: string, options: ConfidencePenaltyOptions): number {
  return confidencePenaltyOptionsSchema.parse(options, fn).beta;
}

/**
 * Confidence penalty (Pereyra et al. 2017): `CE − β·H(p)` = `mean_i[CE_i + β·Σ_j p_ij log p_ij]`.
 * @param logits - `[n, C]`. @param labels - int32 `[n]`.
 * @returns the mean loss (the caller disposes it).
 * @throws ShapeMismatchError on bad shapes; InvalidArgumentError on a negative or non-finite β.
 * @see docs/protocol.md §4.9.
 */
export function confidencePenaltyLoss(logits: tf.Tensor2D, labels: tf.Tensor1D, options: ConfidencePenaltyOptions = {}): tf.Scalar {
  checkLogitsAndLabels('confidencePenaltyLoss', logits, labels);
  return penalised(logits, labels, resolveBeta('confidencePenaltyLoss', options));
}

/**
 * Confidence penalty as a `TrainingPlugin` (replaces the batch objective). Grid: `baselineGrids.confidencePenalty`.
 * @see docs/protocol.md §4.9.
 */
export function confidencePenaltyPlugin(options: ConfidencePenaltyOptions = {}): TrainingPlugin {
  const beta = resolveBeta('confidencePenaltyPlugin', options);
  return { name: `confidencePenalty(β=${beta})`, loss: (ctx) => penalised(ctx.logits, ctx.labels, beta) };
}
