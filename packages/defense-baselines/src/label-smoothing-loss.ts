import * as tf from '@tensorflow/tfjs-core';
import { crossEntropyPerExample, option, optionsSchema, type TrainingPlugin } from '@mia/core';
import { checkLogitsAndLabels } from './check-logits';

/** Options of {@link labelSmoothingLoss} and {@link labelSmoothingPlugin}. */
export interface LabelSmoothingOptions {
  /** Smoothing ε in [0, 1]. @default 0.1 */
  readonly epsilon?: number;
  /**
   * `'rl'`: `ε·mean_i[(1/C)·Σ_j −log p_ij] + (1 − ε)·CE` (ε/C on every class, y included);
   * `'mlh'`: soft targets `1 − ε` on y and `ε/(C − 1)` elsewhere. @default 'rl' (docs/protocol.md A22)
   */
  readonly form?: 'rl' | 'mlh';
}

/** The schema of {@link LabelSmoothingOptions} (validation, defaults, JSON Schema; unknown keys are errors). @see docs/protocol.md §4.8 */
export const labelSmoothingOptionsSchema = optionsSchema({
  epsilon: option.number({ min: 0, max: 1, default: 0.1, description: 'Smoothing ε.' }),
  form: option.choice(['rl', 'mlh'], { default: 'rl', description: "RelaxLoss' form (ε/C on every class) or MLHospital's (1 − ε on y, ε/(C − 1) elsewhere)." }),
});

function resolve(fn: string, options: LabelSmoothingOptions): Required<LabelSmoothingOptions> {
  return labelSmoothingOptionsSchema.parse(options, fn);
}

function smoothed(logits: tf.Tensor2D, labels: tf.Tensor1D, o: Required<LabelSmoothingOptions>): tf.Scalar {
  return tf.tidy(() => {
    const numClasses = logits.shape[1]!;
    const logP = tf.logSoftmax(logits);
    if (o.form === 'rl') {
      const uniform = tf.mean(tf.neg(tf.mean(logP, 1)));
      const ce = tf.mean(crossEntropyPerExample(logits, labels));
      return tf.add(tf.mul(uniform, o.epsilon), tf.mul(ce, 1 - o.epsilon)) as tf.Scalar;
    }
    const oneHot = tf.oneHot(tf.cast(labels, 'int32'), numClasses);
    const targets = tf.add(tf.mul(oneHot, 1 - o.epsilon), tf.mul(tf.sub(1, oneHot), o.epsilon / (numClasses - 1)));
    return tf.mean(tf.neg(tf.sum(tf.mul(targets, logP), 1))) as tf.Scalar;
  });
}

/**
 * Label-smoothing cross-entropy, in the RL form (default) or the MLHospital form.
 * @param logits - `[n, C]`. @param labels - int32 `[n]`.
 * @returns the mean loss (the caller disposes it).
 * @throws ShapeMismatchError on bad shapes; InvalidArgumentError on bad options.
 * @see docs/protocol.md §4.8, §6 item 47, A22; Szegedy et al. 2016.
 */
export function labelSmoothingLoss(logits: tf.Tensor2D, labels: tf.Tensor1D, options: LabelSmoothingOptions = {}): tf.Scalar {
  checkLogitsAndLabels('labelSmoothingLoss', logits, labels);
  return smoothed(logits, labels, resolve('labelSmoothingLoss', options));
}

/**
 * Label smoothing as a `TrainingPlugin` (replaces the batch objective). Grid: `baselineGrids.labelSmoothing`.
 * @see docs/protocol.md §4.8.
 */
export function labelSmoothingPlugin(options: LabelSmoothingOptions = {}): TrainingPlugin {
  const o = resolve('labelSmoothingPlugin', options);
  return { name: `labelSmoothing(ε=${o.epsilon}, ${o.form})`, loss: (ctx) => smoothed(ctx.logits, ctx.labels, o) };
}
