import type * as tf from '@tensorflow/tfjs-core';
import type { Optimizer, LrSchedule } from './optimizer';
import type { Random } from './random';
import type { TrainingPlugin } from './training-plugin';

/** A progress event of {@link train}, emitted after every batch. */
export interface TrainProgressEvent {
  /** 0-based epoch. */
  readonly epoch: number;
  readonly epochs: number;
  /** 1-based count of batches done in this epoch. */
  readonly batch: number;
  readonly batchesPerEpoch: number;
  /** Objective of the last batch. */
  readonly loss: number;
  readonly learningRate: number;
  readonly elapsedMs: number;
  /** Estimated time to the end of the run. */
  readonly etaMs: number;
}

/** Summary of one epoch in {@link TrainResult.history}. */
export interface EpochSummary {
  /** 0-based epoch. */
  readonly epoch: number;
  readonly loss: number;
  readonly accuracy: number;
  readonly learningRate: number;
  readonly seconds: number;
}

/** Options of {@link train}. */
export interface TrainOptions {
  /** Number of epochs (positive integer). */
  readonly epochs: number;
  /** Mini-batch size (positive integer). */
  readonly batchSize: number;
  /** The model optimizer (e.g. `sgd({lr: 0.1, momentum: 0.9, weightDecay: 5e-4})`). `train` does not dispose it. */
  readonly optimizer: Optimizer;
  /** Per-epoch LR schedule. @default constant LR */
  readonly schedule?: LrSchedule;
  /** Seed of shuffling, dropout and plugin randomness. @default 0 */
  readonly seed?: number;
  /** Shuffle every epoch (seeded). @default true */
  readonly shuffle?: boolean;
  /** Drop the last incomplete batch (PyTorch `drop_last`). @default false */
  readonly dropLast?: boolean;
  /** Plugins (defenses, SAM, baselines), applied in order. */
  readonly plugins?: readonly TrainingPlugin[];
  /** Training-time augmentation of each batch (returns a new tensor; `x` is disposed by the loop). */
  readonly augment?: (x: tf.Tensor, random: Random) => tf.Tensor;
  /**
   * Gradient accumulation: each batch is split into micro-batches of at most this size and the
   * gradients are averaged (weighted by size), so big models fit the 4 GB wasm heap. The result
   * equals full-batch training except for batch-norm statistics, which see micro-batches.
   * @default batchSize (no accumulation)
   */
  readonly microBatchSize?: number;
  /** Stops the run between batches; `train` then rejects with an `AbortError`. */
  readonly signal?: AbortSignal;
  /** Called after every batch. */
  readonly onProgress?: (event: TrainProgressEvent) => void;
  /** Draw a progress bar on stderr: `'auto'` = only when stderr is a terminal. @default 'auto' */
  readonly progressBar?: boolean | 'auto';
  /** A label for the progress bar. @default 'train' */
  readonly label?: string;
  /**
   * Checkpointing: the state (weights, BN statistics, plugin variables, optimizer buffers, history)
   * is written atomically to `path` every `every` epochs and after the last epoch.
   */
  readonly checkpoint?: { readonly path: string; readonly every?: number };
  /** Resume from `checkpoint.path` if it exists (same model architecture and options). @default false */
  readonly resume?: boolean;
}

/** What {@link train} returns. */
export interface TrainResult {
  /** One entry per epoch run (including epochs restored from a checkpoint). */
  readonly history: readonly EpochSummary[];
  /** Epoch the run started at (> 0 when resumed). */
  readonly startEpoch: number;
}
