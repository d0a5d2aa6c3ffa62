import * as tf from '@tensorflow/tfjs-core';
import {
  InvalidArgumentError,
  crossEntropyPerExample,
  predictLogits,
  subsetData,
  train,
  type Classifier,
  type LabeledData,
  type TrainingPlugin,
} from '@mia/core';
import { optimizerFor, type TrainingConfig } from '@mia/experiments';

/** One training loss of {@link memberLossDynamics}: a label and the plugin that sets its objective (none = cross-entropy). */
export interface LossVariant {
  readonly label: string;
  readonly plugin?: () => TrainingPlugin;
}

/** Mean and population variance of the members' per-example cross-entropy after one epoch. */
export interface EpochLossStats {
  /** 1-based epoch. */
  readonly epoch: number;
  readonly mean: number;
  readonly variance: number;
}

/** Options of {@link memberLossDynamics}. */
export interface MemberLossDynamicsOptions {
  /** A fresh model, identically initialised on every call (so the variants differ only in their loss). */
  readonly createModel: () => Classifier;
  readonly training: TrainingConfig;
  readonly variants: readonly LossVariant[];
  readonly seed: number;
  readonly signal?: AbortSignal;
}

/** Mean and population variance (ddof = 0, `np.var`) of a sample, in float64. */
export function meanAndVariance(values: ArrayLike<number>): { mean: number; variance: number } {
  if (values.length === 0) throw new InvalidArgumentError('meanAndVariance: values must not be empty, got 0 values');
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i]!;
  const mean = sum / values.length;
  let squares = 0;
  for (let i = 0; i < values.length; i++) squares += (values[i]! - mean) ** 2;
  return { mean, variance: squares / values.length };
}

function memberLoss(model: Classifier, data: LabeledData, members: readonly number[]): { mean: number; variance: number } {
  const logits = predictLogits(model, data, { indices: members });
  const labels = tf.tensor1d(
    Int32Array.from(members, (i) => data.y[i]!),
    'int32',
  );
  const ce = crossEntropyPerExample(logits, labels);
  const values = ce.dataSync();
  tf.dispose([logits, labels, ce]);
  return meanAndVariance(values);
}

/**
 * Trains one model per loss variant on `members` with the config's optimizer and schedule, and after
 * every epoch records the mean and variance of the members' cross-entropy: the dynamics of CCL Fig. 1
 * (CE vs focal loss, plus CCL). The runner's cached models only keep the final epoch, hence this loop.
 * @returns per variant label, one entry per epoch.
 * @throws InvalidArgumentError when `members` is empty or a label repeats.
 * @see CCL (arXiv:2402.05453) Fig. 1, §3.1; docs/protocol.md §5 (loss variance)
 */
export async function memberLossDynamics(
  data: LabeledData,
  members: readonly number[],
  options: MemberLossDynamicsOptions,
): Promise<Map<string, EpochLossStats[]>> {
  if (members.length === 0) throw new InvalidArgumentError('memberLossDynamics: members must not be empty, got 0 indices');
  const labels = options.variants.map((v) => v.label);
  if (new Set(labels).size !== labels.length)
    throw new InvalidArgumentError(`memberLossDynamics: variant labels must be distinct, got ${JSON.stringify(labels)}`);
  const out = new Map<string, EpochLossStats[]>();
  const trainSet = subsetData(data, members);
  for (const variant of options.variants) {
    const stats: EpochLossStats[] = [];
    const recorder: TrainingPlugin = {
      name: 'member-loss-recorder',
      onEpochEnd: (info) => {
        stats.push({ epoch: info.epoch + 1, ...memberLoss(info.model, data, members) });
      },
    };
    const model = options.createModel();
    const { optimizer, schedule } = optimizerFor(options.training);
    const plugins = [...(variant.plugin === undefined ? [] : [variant.plugin()]), recorder];
    try {
      await train(model, trainSet, {
        epochs: options.training.epochs,
        batchSize: options.training.batchSize,
        optimizer,
        schedule,
        plugins,
        seed: options.seed,
        label: variant.label,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
    } finally {
      optimizer.dispose();
      for (const p of plugins) p.dispose?.();
      model.dispose();
    }
    out.set(variant.label, stats);
  }
  return out;
}
