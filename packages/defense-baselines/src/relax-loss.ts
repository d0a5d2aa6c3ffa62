import * as tf from '@tensorflow/tfjs-core';
import { check, crossEntropyPerExample, option, optionsSchema, type TrainingPlugin } from '@mia/core';
import { checkLogitsAndLabels } from './check-logits';
import { softCrossEntropyPerExample } from './soft-cross-entropy';
import { stopGradient } from './stop-gradient';

/** Options of {@link relaxLoss} and {@link relaxLossPlugin}. */
export interface RelaxLossOptions {
  /** Target loss level α (> 0). @default 1 */
  readonly alpha?: number;
  /** Clamp of the true-class soft target (CIFAR 1, Purchase 0.3, Texas 0.1). @default 1 */
  readonly upper?: number;
  /**
   * Posterior-flattening form (the branch below α on odd epochs; docs/protocol.md §4.5, A20):
   * - `'image'`: RL's CIFAR code, `mean[(1 − correct)·softCE(z, t) − CE]`: the correctly classified
   *   examples get `−CE`, gradient ascent that pushes their confidence down;
   * - `'tabular'`: the soft-cross-entropy branch, `mean softCE(z, t)` for every example: RL's
   *   non-image code, and the form CRL's Eq. 3 states and the CRL authors' comparator runs on images
   *   (CRLr `representation/loss/relaxloss.py`, with `parityOffset: 1`).
   * @default 'image'
   */
  readonly variant?: 'image' | 'tabular';
  /** Added to the 0-based epoch before the parity test: 0 = RL, 1 = MLHospital/CRL (A21). @default 0 */
  readonly parityOffset?: number;
  /** Stop the gradient through the soft targets (the reference code does not). @default false */
  readonly detachSoftTargets?: boolean;
}

/** The schema of {@link RelaxLossOptions} (validation, defaults, JSON Schema; unknown keys are errors). @see docs/protocol.md §4.5 */
export const relaxLossOptionsSchema = optionsSchema({
  alpha: option.number({ min: 0, exclusiveMin: true, default: 1, description: 'Target loss level α.' }),
  upper: option.number({ min: 0, max: 1, default: 1, description: 'Clamp of the true-class soft target (CIFAR 1, Purchase 0.3, Texas 0.1).' }),
  variant: option.choice(['image', 'tabular'], {
    default: 'image',
    description: "Posterior flattening: 'image' = RL's CIFAR code (−CE on correct examples), 'tabular' = mean soft CE (RL's non-image code; CRL's Eq. 3).",
  }),
  parityOffset: option.integer({ default: 0, description: 'Added to the 0-based epoch before the parity test: 0 = RL, 1 = MLHospital/CRL.' }),
  detachSoftTargets: option.boolean({ default: false, description: 'Stop the gradient through the soft targets.' }),
});

/** Validated {@link RelaxLossOptions}. @internal */
export function resolveRelaxLossOptions(fn: string, options: RelaxLossOptions): Required<RelaxLossOptions> {
  return relaxLossOptionsSchema.parse(options, fn);
}

/**
 * RelaxLoss's flattened soft targets `t_y = clamp(p_y, 0, upper)`, `t_{j≠y} = (1 − t_y)/(C − 1)`,
 * with `p = softmax(logits)`; the gradient flows through `p` (wrap the result to detach it).
 * @param logits - `[n, C]`. @param oneHot - `[n, C]` one-hot labels. @param upper - clamp in [0, 1].
 * @returns `[n, C]` targets (the caller disposes them).
 * @see docs/protocol.md §4.5.
 */
export function flattenedTargets(logits: tf.Tensor2D, oneHot: tf.Tensor2D, upper: number): tf.Tensor2D {
  return tf.tidy(() => {
    const numClasses = logits.shape[1]!;
    const py = tf.sum(tf.mul(tf.softmax(logits), oneHot), 1, true);
    const ty = tf.clipByValue(py, 0, upper);
    const rest = tf.div(tf.sub(1, ty), numClasses - 1);
    return tf.add(tf.mul(oneHot, ty), tf.mul(tf.sub(1, oneHot), rest)) as tf.Tensor2D;
  });
}

/**
 * RelaxLoss (Chen et al. 2022) for one batch, as in the RL code. With `ℓ = mean CE` and
 * `e = epoch + parityOffset`:
 * - `e` even: `|ℓ − α|` (gradient ascent below α);
 * - `e` odd and `ℓ > α`: `ℓ`;
 * - otherwise posterior flattening (`variant`): image `mean[(1 − correct)·softCE(z, t) − CE]`,
 *   tabular `mean softCE(z, t)` (CRL's Eq. 3 with `parityOffset: 1`), with `t` from
 *   {@link flattenedTargets} (not detached by default).
 *
 * The branch on `ℓ > α` is taken with `tf.where`, so no value is read back to the CPU.
 *
 * @param logits - `[n, C]`. @param labels - int32 `[n]`.
 * @param epoch - 0-based epoch of the batch (as in `BatchContext.epoch`).
 * @returns the scalar loss (the caller disposes it).
 * @throws ShapeMismatchError on bad shapes; InvalidArgumentError on bad options.
 * @see docs/protocol.md §4.5, §6 item 21, A20, A21; RL `source/cifar/defense/relaxloss.py`,
 *   `source/nonimage/defense/relaxloss.py`; CRL (arXiv:2404.17674) Eq. 3.
 */
export function relaxLoss(logits: tf.Tensor2D, labels: tf.Tensor1D, epoch: number, options: RelaxLossOptions = {}): tf.Scalar {
  checkLogitsAndLabels('relaxLoss', logits, labels);
  check(Number.isInteger(epoch) && epoch >= 0, 'relaxLoss', 'epoch', 'a non-negative integer', epoch);
  const o = resolveRelaxLossOptions('relaxLoss', options);
  return relaxLossUnchecked(logits, labels, epoch, o);
}

/** {@link relaxLoss} without validation, for the plugin's hot path. @internal */
export function relaxLossUnchecked(logits: tf.Tensor2D, labels: tf.Tensor1D, epoch: number, o: Required<RelaxLossOptions>): tf.Scalar {
  return tf.tidy(() => {
    const ce = crossEntropyPerExample(logits, labels);
    const mean = tf.mean(ce) as tf.Scalar;
    if ((epoch + o.parityOffset) % 2 === 0) return tf.abs(tf.sub(mean, o.alpha)) as tf.Scalar;
    const oneHot = tf.oneHot(tf.cast(labels, 'int32'), logits.shape[1]!) as tf.Tensor2D;
    let targets = flattenedTargets(logits, oneHot, o.upper);
    if (o.detachSoftTargets) targets = stopGradient(targets);
    const soft = softCrossEntropyPerExample(logits, targets);
    let flattened: tf.Scalar;
    if (o.variant === 'tabular') {
      flattened = tf.mean(soft) as tf.Scalar;
    } else {
      // oneHot(argMax)·oneHot(y) instead of equal(): tfjs-core has no gradient for Equal.
      const correct = tf.sum(tf.mul(tf.oneHot(tf.argMax(logits, 1), logits.shape[1]!), oneHot), 1);
      flattened = tf.mean(tf.sub(tf.mul(tf.sub(1, correct), soft), ce)) as tf.Scalar;
    }
    // `α ≥ ℓ` (GreaterEqual has a gradient in tfjs-core, Greater has none).
    return tf.where(tf.greaterEqual(tf.scalar(o.alpha), mean), flattened, mean) as tf.Scalar;
  });
}

/**
 * RelaxLoss as a `TrainingPlugin`: replaces the batch objective by {@link relaxLoss} at the
 * batch's epoch (earlier plugins' objectives are ignored).
 * Hyperparameters: docs/protocol.md §2.3 (α, upper per dataset); grid `baselineGrids.relaxLoss`.
 * @throws InvalidArgumentError on bad options.
 * @see docs/protocol.md §4.5.
 */
export function relaxLossPlugin(options: RelaxLossOptions = {}): TrainingPlugin {
  const o = resolveRelaxLossOptions('relaxLossPlugin', options);
  return {
    name: `relaxLoss(α=${o.alpha}, upper=${o.upper}, ${o.variant})`,
    loss: (ctx) => relaxLossUnchecked(ctx.logits, ctx.labels, ctx.epoch, o),
  };
}
