import * as tf from '@tensorflow/tfjs-core';
import {
  CheckpointError,
  InvalidArgumentError,
  check,
  checkPositiveInteger,
  evaluate,
  readCheckpointFile,
  writeCheckpointFile,
  type Classifier,
  type LabeledData,
  type TrainingPlugin,
} from '@mia/core';

/** Options of {@link earlyStopping}. */
export interface EarlyStoppingOptions {
  /** Numbers of completed epochs (1-based: `25` = after the 25th epoch) at which to snapshot the weights. @default [] */
  readonly snapshotEpochs?: readonly number[];
  /** Held-out data evaluated (eval mode) after every epoch; the best-accuracy weights are kept as `'best'` (first maximiser wins). */
  readonly validation?: LabeledData;
  /** Write snapshots as `<directory>/epoch-<n>.ckpt` / `best.ckpt` with `writeCheckpointFile` instead of keeping them in memory. */
  readonly directory?: string;
  /** Batch size of the validation pass. @default 256 */
  readonly batchSize?: number;
}

/** The plugin returned by {@link earlyStopping}. */
export interface EarlyStopping extends TrainingPlugin {
  /** Epoch counts snapshotted so far, in order. */
  readonly savedEpochs: readonly number[];
  /** Epoch count (1-based) of the best validation accuracy, once a validation pass has run. */
  readonly bestEpoch: number | undefined;
  readonly bestAccuracy: number | undefined;
  /** Copies the weights (trainable and state variables) of a snapshot into `model` (same architecture). */
  restore(model: Classifier, which: number | 'best'): Promise<void>;
  /** Frees the in-memory snapshots. */
  dispose(): void;
}

function variablesOf(model: Classifier): tf.Variable[] {
  return [...model.trainableVariables, ...model.stateVariables];
}

/**
 * Early stopping as a `TrainingPlugin`: snapshots the weights at fixed epochs (each snapshot is a
 * separate target for the trade-off curve) and/or keeps the weights with the best validation
 * accuracy (the SharpReg paper's "early stopping", docs/protocol.md A11). Snapshots are taken in
 * `onEpochEnd` and kept in memory (tensor copies) or written with core's `writeCheckpointFile`.
 *
 * @throws InvalidArgumentError on non-positive or repeated epochs.
 * @see docs/protocol.md §4.11; grids `baselineGrids.earlyStopping*`.
 */
export function earlyStopping(options: EarlyStoppingOptions = {}): EarlyStopping {
  const wanted = [...(options.snapshotEpochs ?? [])];
  wanted.forEach((e, i) => checkPositiveInteger('earlyStopping', `snapshotEpochs[${i}]`, e));
  check(new Set(wanted).size === wanted.length, 'earlyStopping', 'snapshotEpochs', 'distinct epochs', wanted);
  const memory = new Map<string, tf.Tensor[]>();
  const saved: number[] = [];
  let bestEpoch: number | undefined;
  let bestAccuracy: number | undefined;

  const save = async (key: string, model: Classifier) => {
    const tensors = variablesOf(model).map((v) => v.clone());
    if (options.directory === undefined) {
      memory.get(key)?.forEach((t) => t.dispose());
      memory.set(key, tensors);
      return;
    }
    try {
      await writeCheckpointFile(`${options.directory}/${key}.ckpt`, {
        meta: { format: 'mia-early-stopping-1', key },
        tensors: tensors.map((tensor, i) => ({ name: String(i), tensor })),
      });
    } finally {
      tensors.forEach((t) => t.dispose());
    }
  };

  return {
    name: 'earlyStopping',
    get savedEpochs() {
      return saved;
    },
    get bestEpoch() {
      return bestEpoch;
    },
    get bestAccuracy() {
      return bestAccuracy;
    },
    async onEpochEnd(info) {
      const done = info.epoch + 1;
      if (wanted.includes(done)) {
        await save(`epoch-${done}`, info.model);
        saved.push(done);
      }
      if (options.validation !== undefined) {
        const { accuracy } = evaluate(info.model, options.validation, { batchSize: options.batchSize ?? 256 });
        if (bestAccuracy === undefined || accuracy > bestAccuracy) {
          bestAccuracy = accuracy;
          bestEpoch = done;
          await save('best', info.model);
        }
      }
    },
    async restore(model, which) {
      const key = which === 'best' ? 'best' : `epoch-${which}`;
      const targets = variablesOf(model);
      let tensors: readonly tf.Tensor[] | undefined = memory.get(key);
      let owned: tf.Tensor[] = [];
      if (options.directory !== undefined) {
        const data = await readCheckpointFile(`${options.directory}/${key}.ckpt`);
        owned = data?.tensors.map((t) => t.tensor) ?? [];
        tensors = data === undefined ? undefined : owned;
      }
      try {
        if (tensors === undefined)
          throw new InvalidArgumentError(
            `earlyStopping.restore: no snapshot ${String(which)}; saved epochs: [${saved.join(', ')}]${bestEpoch === undefined ? '' : ', best'}`,
          );
        if (tensors.length !== targets.length || tensors.some((t, i) => t.shape.join() !== targets[i]!.shape.join())) {
          throw new CheckpointError(`earlyStopping.restore: snapshot ${String(which)} does not match the model's ${targets.length} variables`);
        }
        targets.forEach((v, i) => v.assign(tensors![i]!));
      } finally {
        owned.forEach((t) => t.dispose());
      }
    },
    dispose() {
      for (const list of memory.values()) list.forEach((t) => t.dispose());
      memory.clear();
    },
  };
}
