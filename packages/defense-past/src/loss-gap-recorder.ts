import { check, type LabeledData, type TrainingPlugin } from '@mia/core';
import { measureLossGap, type LossGapMeasurement } from './measure-loss-gap';

/** One point of a {@link lossGapRecorder} curve. */
export interface LossGapRecord extends LossGapMeasurement {
  /** Epochs completed in this run when measured (0 = before the first epoch). */
  readonly epochsDone: number;
}

/** Options of {@link lossGapRecorder}. */
export interface LossGapRecorderOptions {
  /** `S_m`, e.g. a random subset of the training set (the paper uses 10 000 examples). */
  readonly members: LabeledData;
  /** `S_n`, e.g. a random subset of the test set. */
  readonly nonMembers: LabeledData;
  /** Also measure before the first epoch (`epochsDone = 0`). @default true */
  readonly atStart?: boolean;
  /** Measure every this many epochs (and after the last one). @default 1 */
  readonly every?: number;
  /** @default 256 */
  readonly batchSize?: number;
}

/**
 * A plugin that records the eval-mode loss gap over epochs (PAST Fig. 2c, 10). Attach it to the
 * phase-1 `train` call and to {@link pastTune} (`plugins`) to draw the whole curve; `records`
 * keeps growing across runs.
 * @returns The plugin with its `records` array.
 * @throws InvalidArgumentError when `every` is not a positive integer.
 * @see docs/protocol.md §5 "Loss gap".
 */
export function lossGapRecorder(options: LossGapRecorderOptions): TrainingPlugin & { readonly records: LossGapRecord[] } {
  const every = options.every ?? 1;
  check(Number.isInteger(every) && every > 0, 'lossGapRecorder', 'every', 'a positive integer', every);
  const records: LossGapRecord[] = [];
  const measure = (model: Parameters<typeof measureLossGap>[0], epochsDone: number) => {
    records.push({ epochsDone, ...measureLossGap(model, options.members, options.nonMembers, { batchSize: options.batchSize }) });
  };
  return {
    name: 'loss-gap-recorder',
    records,
    onTrainStart({ model, epoch }) {
      if (options.atStart !== false) measure(model, epoch);
    },
    onEpochEnd({ model, epoch, epochs }) {
      if ((epoch + 1) % every === 0 || epoch + 1 === epochs) measure(model, epoch + 1);
    },
  };
}
