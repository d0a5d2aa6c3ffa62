import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, batchNormTraining } from '@mia/core';
import type { Layer } from './layer';
import type { ParameterStore } from './parameter-store';

/** PyTorch's `BatchNorm` defaults. */
const MOMENTUM = 0.1;
const EPSILON = 1e-5;

/**
 * A `BatchNorm1d`/`BatchNorm2d` with PyTorch semantics: γ = 1, β = 0 at start; training mode
 * normalises with the biased batch variance and, when `ctx.updateStatistics`, updates
 * `running = 0.9·running + 0.1·batch` with the **unbiased** batch variance; eval mode uses the
 * running statistics. Normalises over every axis but the last (channels, NHWC).
 *
 * The running statistics are updated through `Variable.assign` inside a nested `tf.tidy`, which
 * works inside `tf.variableGrads` closures (the update is not on the loss path).
 *
 * `relu: true` makes it `BatchNorm` followed by `ReLU` (one fused kernel in training where the
 * backend has it, `@mia/backend-native` does).
 * @internal
 */
export function batchNormLayer(store: ParameterStore, name: string, channels: number, options: { relu?: boolean } = {}): Layer {
  const relu = options.relu ?? false;
  const ones = new Float32Array(channels).fill(1);
  const gamma = store.variable(`${name}.weight`, [channels], ones, true);
  const beta = store.variable(`${name}.bias`, [channels], undefined, true);
  const runningMean = store.variable(`${name}.running_mean`, [channels], undefined, false);
  const runningVar = store.variable(`${name}.running_var`, [channels], ones, false);
  store.group(name, 'batchnorm', gamma, beta);
  return (x, ctx) => {
    if (ctx.tape !== undefined) {
      throw new InvalidArgumentError(
        `${name}: batch norm cannot run through a per-example tape (an example's gradient depends on the rest of the batch, so per-example clipping bounds nothing); build the model with norm: 'group' or 'none'`,
      );
    }
    if (!ctx.training) {
      const y = tf.batchNorm(x, runningMean, runningVar, beta, gamma, EPSILON);
      return relu ? tf.relu(y) : y;
    }
    const count = x.size / channels;
    if (count < 2) {
      throw new InvalidArgumentError(`${name}: batch norm in training mode needs more than 1 value per channel, got ${count}`);
    }
    const { y, mean, variance } = batchNormTraining(x, gamma, beta, EPSILON, { activation: relu ? 'relu' : 'linear' });
    if (ctx.updateStatistics) {
      tf.tidy(() => {
        const unbiased = tf.mul(variance, count / (count - 1));
        runningMean.assign(tf.add(tf.mul(runningMean, 1 - MOMENTUM), tf.mul(mean, MOMENTUM)));
        runningVar.assign(tf.add(tf.mul(runningVar, 1 - MOMENTUM), tf.mul(unbiased, MOMENTUM)));
      });
    }
    return y;
  };
}
