import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkNonNegativeInteger, type Classifier, type LabeledData, type TrainingPlugin } from '@mia/core';
import { reestimateStatistics, type ReestimateStatisticsOptions } from './reestimate-statistics';

/** Options of {@link swa}. */
export interface SwaOptions {
  /** 0-based epoch from whose end the weights are averaged (epochs `start, start+1, …`). */
  readonly start: number;
}

/** The stochastic-weight-averaging plugin; it owns the running average (free it with `dispose()`). */
export interface SwaPlugin extends TrainingPlugin {
  /** Number of weight snapshots averaged so far. */
  readonly count: number;
  /** The running averages, one per model trainable variable (empty before the first snapshot). */
  readonly averages: readonly tf.Variable[];
  dispose(): void;
}

let instances = 0;

/**
 * Stochastic weight averaging (Izmailov et al.) as a `TrainingPlugin`: at the end of every epoch
 * `e ≥ start` (0-based), the model's trainable weights enter an equal-weight running average
 * `w̄ ← w̄ + (w − w̄)/(n + 1)`. Training itself is unchanged (use the run's optimizer and
 * schedule); write the average into the model with {@link applySwa}.
 *
 * @throws InvalidArgumentError on a negative or non-integer `start`.
 * @see SAM-privacy §3.2 (SWA on CIFAR-100: 150 SGD epochs, then averaging); docs/protocol.md §2.4.
 */
export function swa(options: SwaOptions): SwaPlugin {
  checkNonNegativeInteger('swa', 'start', options.start);
  const uid = (instances++).toString(36);
  let averages: tf.Variable[] = [];
  let count = 0;
  return {
    name: `swa(start=${options.start})`,
    get count() {
      return count;
    },
    get averages() {
      return averages;
    },
    onEpochEnd(info) {
      if (info.epoch < options.start) return;
      const weights = info.model.trainableVariables;
      if (count === 0) {
        averages = weights.map((w, k) => tf.tidy(() => tf.variable(tf.clone(w), false, `swa_${uid}_${k}/${w.name}`)));
      } else {
        tf.tidy(() => averages.forEach((avg, k) => avg.assign(tf.add(avg, tf.div(tf.sub(weights[k]!, avg), count + 1)))));
      }
      count += 1;
    },
    dispose() {
      for (const v of averages) v.dispose();
      averages = [];
      count = 0;
    },
  };
}

/**
 * Writes the SWA average into `model` and, when `data` is given, re-estimates the running
 * statistics (BN) with one pass over it ({@link reestimateStatistics}); the averaged weights
 * otherwise do not match the statistics collected along the trajectory.
 *
 * @throws InvalidArgumentError when the plugin has averaged nothing or belongs to another model.
 */
export function applySwa(model: Classifier, plugin: SwaPlugin, data?: LabeledData, options: ReestimateStatisticsOptions = {}): void {
  if (plugin.count === 0) throw new InvalidArgumentError('applySwa: the plugin must have averaged at least one epoch (is start < epochs?), got count 0');
  const weights = model.trainableVariables;
  if (weights.length !== plugin.averages.length || weights.some((w, k) => w.shape.join() !== plugin.averages[k]!.shape.join())) {
    throw new InvalidArgumentError(
      `applySwa: the plugin's averages must match the model's ${weights.length} trainable variables, got ${plugin.averages.length}`,
    );
  }
  weights.forEach((w, k) => w.assign(plugin.averages[k]!));
  if (data !== undefined) reestimateStatistics(model, data, options);
}
