import * as tf from '@tensorflow/tfjs-core';
import type { Layer } from './layer';
import type { ParameterStore } from './parameter-store';

/** PyTorch's `GroupNorm` default. */
const EPSILON = 1e-5;

/**
 * `x` normalised per example and per group of `channels / groups` consecutive channels, over the
 * group's channels and every spatial position, with the biased variance (PyTorch's `GroupNorm`
 * without its affine part). Channels last: `[n, …, c]`. @internal
 */
export function groupNormalize(x: tf.Tensor, groups: number, epsilon = EPSILON): tf.Tensor {
  return tf.tidy(() => {
    const n = x.shape[0]!;
    const c = x.shape[x.rank - 1]!;
    const grouped = tf.reshape(x, [n, -1, groups, c / groups]);
    const { mean, variance } = tf.moments(grouped, [1, 3], true);
    return tf.reshape(tf.mul(tf.sub(grouped, mean), tf.rsqrt(tf.add(variance, epsilon))), x.shape);
  });
}

/**
 * A `GroupNorm(groups, channels)` with PyTorch semantics (Wu and He 2018, arXiv:1803.08494): each
 * example is normalised on its own (no batch statistics, no running state, the same in training and
 * evaluation), then scaled and shifted per channel by γ = 1 and β = 0 at start. The affine part runs
 * through `ctx.tape` when there is one (per-example gradient norms for DP-SGD). Registers a
 * `groupnorm` parameter group named `name`.
 * @internal
 */
export function groupNormLayer(store: ParameterStore, name: string, channels: number, groups: number): Layer {
  const gamma = store.variable(`${name}.weight`, [channels], new Float32Array(channels).fill(1), true);
  const beta = store.variable(`${name}.bias`, [channels], undefined, true);
  store.group(name, 'groupnorm', gamma, beta);
  return (x, ctx) => {
    const normalized = groupNormalize(x, groups);
    return ctx.tape !== undefined ? ctx.tape.affine(normalized, gamma, beta) : tf.add(tf.mul(normalized, gamma), beta);
  };
}
