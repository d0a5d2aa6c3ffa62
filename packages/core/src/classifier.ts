import type * as tf from '@tensorflow/tfjs-core';
import type { PerExampleTape } from './per-example-tape';

/** What a parameter group is, for defenses that treat kinds differently (PAST, L1 touch weights only). */
export type ParameterKind = 'conv' | 'dense' | 'batchnorm' | 'groupnorm';

/**
 * One named module's parameters, e.g. `{name: 'layer3.0.conv1', kind: 'conv', weight}`.
 * PAST computes its sensitivity per group (docs/protocol.md §4.1: "modules" = every Conv, Linear and
 * BatchNorm; only `.weight` is regularised).
 */
export interface ParameterGroup {
  /** Unique, PyTorch-like dotted name (`layer1.0.conv1`, `fc`, `bn1`). */
  readonly name: string;
  readonly kind: ParameterKind;
  /** The kernel (conv/dense) or the scale γ (batchnorm, groupnorm). */
  readonly weight: tf.Variable;
  /** The bias (conv/dense) or the shift β (batchnorm, groupnorm), if the module has one. */
  readonly bias?: tf.Variable;
}

/** Options of {@link Classifier.forward}. */
export interface ForwardOptions {
  /** Training mode: dropout active, batch norm uses batch statistics. */
  readonly training: boolean;
  /**
   * Whether a training-mode forward updates batch-norm running statistics.
   * @default the value of `training`. SAM's second pass sets it to `false` (docs/protocol.md §4.4, A24).
   */
  readonly updateStatistics?: boolean;
  /** Seed of the stochastic layers (dropout) for this call; makes training reproducible. */
  readonly seed?: number;
  /**
   * Run every layer with trainable parameters through this tape (per-example gradient norms for
   * DP-SGD, `@mia/defense-dp`). Optional to support: a classifier that cannot refuses it with an
   * `InvalidArgumentError`, or ignores it (a DP-SGD step then finds variables outside the tape and
   * says so). `@mia/models` architectures support it with `training: true`, and refuse it on a
   * model with batch normalization.
   */
  readonly tape?: PerExampleTape;
}

/** Outputs of {@link Classifier.forward}. */
export interface ForwardResult {
  /** Unnormalised class scores, `[batch, numClasses]`. */
  readonly logits: tf.Tensor2D;
  /** Penultimate activations (globally pooled for conv nets), `[batch, featureDim]`; CRL needs them. */
  readonly features: tf.Tensor2D;
}

/**
 * What every model is in `@mia/*`: the architectures of `@mia/models` and a user's own
 * `tf.LayersModel` (through `classifierFromLayersModel`) alike.
 *
 * A classifier owns its variables; `dispose()` frees them.
 */
export interface Classifier {
  /** Number of classes C. */
  readonly numClasses: number;
  /** Shape of one example, without the batch dimension (e.g. `[32, 32, 3]` or `[600]`). */
  readonly inputShape: readonly number[];
  /** Width of `features`. */
  readonly featureDim: number;
  /** Every trainable variable, in a stable order. */
  readonly trainableVariables: readonly tf.Variable[];
  /** Non-trainable state (batch-norm running mean/variance), in a stable order; saved in checkpoints. */
  readonly stateVariables: readonly tf.Variable[];
  /** Named conv/dense/batchnorm modules with their weight (and bias) variables. */
  readonly parameterGroups: readonly ParameterGroup[];
  /** Runs the model on a batch `[n, ...inputShape]`. Does not dispose `x`. */
  forward(x: tf.Tensor, options: ForwardOptions): ForwardResult;
  /** Frees every variable. The classifier is unusable afterwards. */
  dispose(): void;
}

/** Number of scalar parameters in `classifier.trainableVariables`. */
export function countParameters(classifier: Pick<Classifier, 'trainableVariables'>): number {
  let total = 0;
  for (const v of classifier.trainableVariables) total += v.size;
  return total;
}
