import type { InferOptions } from '@mia/core';
import type { tuningPhaseSchema } from './past-options';
import { cosine, sgd, train, type Classifier, type LabeledData, type TrainingPlugin, type TrainOptions, type TrainResult } from '@mia/core';

/** Options shared by {@link pastTune} and {@link lossGapTune}: the fresh tuning-phase optimizer and loop. */
export interface TuningPhaseOptions extends Pick<
  TrainOptions,
  'augment' | 'microBatchSize' | 'signal' | 'onProgress' | 'progressBar' | 'label' | 'checkpoint' | 'resume' | 'dropLast'
> {
  /** The member (training) set the model was trained on. */
  readonly members: LabeledData;
  /** Tuning epochs (PAST: 50 on CIFAR-10, 20 elsewhere); the cosine schedule runs over them. @default 20 */
  readonly epochs?: number;
  /** Initial LR of the fresh SGD. @default 0.01 */
  readonly lr?: number;
  /** @default 0.9 */
  readonly momentum?: number;
  /** Coupled weight decay of the fresh SGD, applied to every parameter. @default 5e-4 */
  readonly weightDecay?: number;
  /** Member batch size (also the non-member batch size, docs/protocol.md A15). @default 128 */
  readonly batchSize?: number;
  /** Seed of member shuffling, non-member batch order and dropout. @default 0 */
  readonly seed?: number;
  /** Extra plugins run after the regulariser, e.g. {@link lossGapRecorder} or {@link giniRecorder}. */
  readonly plugins?: readonly TrainingPlugin[];
}

/** The validated tuning options. @internal */
export type ResolvedTuning = InferOptions<typeof tuningPhaseSchema>;

/**
 * Runs a tuning phase the way PASTr does after convergence: a **new** SGD (lr 0.01, momentum 0.9,
 * wd 5e-4, PyTorch semantics) and a cosine schedule over the tuning epochs, so the LR restarts and
 * the momentum buffers are empty; the optimizer is disposed at the end.
 * @see docs/protocol.md §2.1 ("phase 2 builds a new optimizer"), §6 item 4.
 * @param resolved - the tuning options from {@link tuningPhaseSchema} or {@link resolvePastOptions}, validated once.
 * @internal
 */
export async function runTuningPhase(
  fn: string,
  classifier: Classifier,
  regularizer: TrainingPlugin,
  options: TuningPhaseOptions,
  resolved: ResolvedTuning,
): Promise<TrainResult> {
  const { epochs, batchSize, seed, lr, momentum, weightDecay } = resolved;
  const optimizer = sgd({ lr, momentum, weightDecay });
  try {
    return await train(classifier, options.members, {
      epochs,
      batchSize,
      seed,
      optimizer,
      schedule: cosine(epochs),
      plugins: [regularizer, ...(options.plugins ?? [])],
      augment: options.augment,
      microBatchSize: resolved.microBatchSize,
      signal: options.signal,
      onProgress: options.onProgress,
      progressBar: options.progressBar,
      label: options.label ?? fn,
      checkpoint: options.checkpoint,
      resume: options.resume,
      dropLast: options.dropLast,
    });
  } finally {
    optimizer.dispose();
  }
}
