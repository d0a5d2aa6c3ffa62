import * as tf from '@tensorflow/tfjs-core';
import type { Layer } from './layer';
import type { ParameterStore } from './parameter-store';

/** PyTorch's `GroupNorm` default. */
const EPSILON = 1e-5;

type CustomGradientFunc = Parameters<typeof tf.customGrad>[0];

/** Mean over the positions and the channels of each group of `[n, T, G, C/G]`: two reductions over contiguous axes. */
const groupMean = (t: tf.Tensor): tf.Tensor => tf.mean(tf.mean(t, 3, true), 1, true);

/**
 * `x` normalised per example and per group of `channels / groups` consecutive channels, over the
 * group's channels and every spatial position, with the biased variance (PyTorch's `GroupNorm`
 * without its affine part). Channels last: `[n, …, c]`.
 *
 * With a gradient of its own, `dx = (dy − mean(dy) − x̂·mean(dy·x̂)) / σ` per group (Wu and He 2018,
 * the batch-norm backward pass with the group as the batch): automatic differentiation of the
 * broadcasts would reduce over the positions and the group's channels at once, two axes that are
 * not adjacent in NHWC, which the native kernels refuse and the wasm ones do slowly; each mean here
 * is two reductions over adjacent axes.
 * @internal
 */
export function groupNormalize(x: tf.Tensor, groups: number, epsilon = EPSILON): tf.Tensor {
  const n = x.shape[0]!;
  const c = x.shape[x.rank - 1]!;
  const shape = [n, -1, groups, c / groups];
  return tf.customGrad(((input: tf.Tensor, save: (tensors: tf.Tensor[]) => void) => {
    const grouped = tf.reshape(input, shape);
    const centered = tf.sub(grouped, groupMean(grouped));
    const inverseStd = tf.rsqrt(tf.add(groupMean(tf.square(centered)), epsilon));
    const normalized = tf.mul(centered, inverseStd);
    save([normalized, inverseStd]);
    return {
      value: tf.reshape(normalized, input.shape),
      gradFunc: (dy: tf.Tensor, [xHat, inv]: tf.Tensor[]) => {
        const g = tf.reshape(dy, shape);
        const dx = tf.mul(tf.sub(tf.sub(g, groupMean(g)), tf.mul(xHat!, groupMean(tf.mul(g, xHat!)))), inv!);
        return tf.reshape(dx, input.shape);
      },
    };
  }) as unknown as CustomGradientFunc)(x);
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
