import type * as tf from '@tensorflow/tfjs-core';

/** Gradients keyed by `tf.Variable.name`. */
export type Gradients = Record<string, tf.Tensor>;

/** A named tensor of optimizer or model state, for checkpoints. */
export interface NamedState {
  readonly name: string;
  readonly tensor: tf.Tensor;
}

/**
 * An optimizer with PyTorch semantics (docs/protocol.md §0): weight decay is coupled (added to the
 * gradient before momentum) and the learning rate is passed at every step, so a schedule changes
 * it without touching the momentum buffers.
 */
export interface Optimizer {
  /** Short name (`sgd`, `adam`) for reports and checkpoints. */
  readonly name: string;
  /** The base learning rate `lr0` that schedules scale. */
  readonly learningRate: number;
  /**
   * One update: for every variable with a gradient `grads[v.name]`, `v ← update(v, g, lr)`.
   * Variables without a gradient are left unchanged. Does not dispose `grads`.
   */
  applyGradients(variables: readonly tf.Variable[], grads: Gradients, lr: number): void;
  /** Buffers (momentum, Adam moments, step count) keyed by variable name, for checkpoints. Tensors are copies owned by the caller. */
  getState(): NamedState[];
  /** Restores buffers from {@link Optimizer.getState}; takes ownership of nothing (copies). */
  setState(state: readonly NamedState[]): void;
  /** Frees every buffer. The optimizer starts fresh on its next step. */
  dispose(): void;
}

/**
 * A learning-rate schedule, stepped once per epoch like PyTorch's `scheduler.step()` after each
 * epoch: `lr = schedule(epoch, lr0)` with `epoch` 0-based.
 */
export type LrSchedule = (epoch: number, baseLr: number) => number;
