import type * as tf from '@tensorflow/tfjs-core';
import type { Classifier } from './classifier';
import type { Gradients, Optimizer } from './optimizer';

/**
 * What a plugin sees of the current mini-batch. All tensors belong to the loop: do not dispose them.
 * Counters are 0-based (`epoch` 0 is the first epoch; PyTorch-style 1-based parity rules such as
 * CRL's must add 1 themselves, see docs/protocol.md A21).
 */
export interface BatchContext {
  readonly model: Classifier;
  /** 0-based epoch index. */
  readonly epoch: number;
  /** Total epochs of this run. */
  readonly epochs: number;
  /** 0-based step counter over the whole run. */
  readonly step: number;
  /** 0-based index of the batch within the epoch. */
  readonly batchIndex: number;
  /** Batches per epoch. */
  readonly batchesPerEpoch: number;
  /** The (augmented) input batch. */
  readonly x: tf.Tensor;
  /** Integer labels of the batch, int32 `[n]`. */
  readonly labels: tf.Tensor1D;
  /** The same labels as a typed array. */
  readonly labelValues: Int32Array;
  /** Indices of the batch's examples in the training data. */
  readonly indices: Int32Array;
  readonly numClasses: number;
  /** Learning rate of the model optimizer for this epoch. */
  readonly learningRate: number;
  /** Seed for this step's stochastic choices (dropout, mixup draws). */
  readonly seed: number;
}

/** A {@link BatchContext} plus the forward pass of the batch. */
export interface LossContext extends BatchContext {
  readonly logits: tf.Tensor2D;
  readonly features: tf.Tensor2D;
}

/** Loss and gradients of one forward/backward pass. */
export interface GradientResult {
  readonly loss: tf.Scalar;
  /** Gradients of every trained variable (model and plugin variables), keyed by variable name. */
  readonly grads: Gradients;
}

/** What a `step` hook can use to build its own update (SAM's two passes). */
export interface StepTools {
  /** Every variable trained in this run (model first, then plugin variables). */
  readonly variables: readonly tf.Variable[];
  /**
   * Forward + backward on the current batch at the current weights with the run's objective
   * (the composed plugin losses, or cross-entropy). Splits into micro-batches when gradient
   * accumulation is on.
   * @param options.updateStatistics - whether BN running statistics are updated (default true).
   */
  computeGradients(options?: { updateStatistics?: boolean }): GradientResult;
  /** Runs every plugin's `adjustGradients`, then the optimizers (model optimizer and plugin optimizers). */
  applyGradients(grads: Gradients): void;
}

/** Information passed to epoch hooks. */
export interface EpochInfo {
  readonly model: Classifier;
  /** 0-based epoch index. */
  readonly epoch: number;
  readonly epochs: number;
  readonly learningRate: number;
}

/** {@link EpochInfo} plus what the epoch measured. */
export interface EpochEndInfo extends EpochInfo {
  /** Mean training objective over the epoch's batches. */
  readonly loss: number;
  /** Training accuracy over the epoch (training-mode forward). */
  readonly accuracy: number;
}

/**
 * How defenses, SAM and baselines change a training run without copying the loop.
 * Every hook is optional. Hooks run inside the loop's `tf.tidy`, except the epoch hooks.
 */
export interface TrainingPlugin {
  /** Short name for logs and errors. */
  readonly name: string;
  /**
   * Replaces the per-batch objective. `baseLoss()` returns the objective of the plugins before
   * this one (or mean cross-entropy), so plugins can add terms (AdvReg) or replace it (CCL).
   */
  loss?(ctx: LossContext, baseLoss: () => tf.Scalar): tf.Scalar;
  /** Extra variables trained with the model (CRL's class centres). */
  readonly variables?: readonly tf.Variable[];
  /**
   * The optimizer of {@link TrainingPlugin.variables}, stepped at its own constant learning rate.
   * @default the model's optimizer and schedule.
   */
  readonly optimizer?: Optimizer;
  /** Changes the gradients before the optimizer step (PAST's `λ·γ^α·sign(w)`, L1). Return new tensors or the same ones. */
  adjustGradients?(ctx: BatchContext, grads: Gradients): Gradients;
  /** Replaces the update of a batch (SAM, SharpReg). Must call `tools.applyGradients` and return the loss. At most one plugin per run may define it. */
  step?(ctx: BatchContext, tools: StepTools): tf.Scalar;
  /** Called once before the first epoch (also when resuming). */
  onTrainStart?(info: EpochInfo): void | Promise<void>;
  onEpochStart?(info: EpochInfo): void | Promise<void>;
  onEpochEnd?(info: EpochEndInfo): void | Promise<void>;
  /** Called once after the last epoch, or when the run stops early. */
  onTrainEnd?(info: EpochInfo): void | Promise<void>;
  /** Frees what the plugin owns (its optimizer, attack models...). Not called by `train`. */
  dispose?(): void;
}
