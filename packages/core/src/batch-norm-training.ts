import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError } from './errors';

/**
 * Name of the optional kernel a backend registers to compute {@link batchNormTraining} in one pass:
 * inputs `{x, scale?, offset?}`, attribute `varianceEpsilon`, outputs `[y, mean, variance]`.
 */
export const BATCH_NORM_TRAINING = 'MiaBatchNormTraining';

/**
 * Name of the optional kernel a backend registers to compute {@link batchNormTraining} with
 * `activation: 'relu'` in one pass: as {@link BATCH_NORM_TRAINING}, with `y = max(normalised, 0)`.
 */
export const BATCH_NORM_RELU_TRAINING = 'MiaBatchNormReluTraining';

/**
 * Name of the gradient kernel of both: inputs `{dy, x, mean, variance, scale?, y?}`, attribute
 * `varianceEpsilon`, outputs `[dx, dScale, dOffset]` (the gradient through the batch statistics). With
 * `y` (the output of {@link BATCH_NORM_RELU_TRAINING}), `dy` is first multiplied by ReLU's gradient
 * `step(y)`.
 */
export const BATCH_NORM_TRAINING_GRAD = 'MiaBatchNormTrainingGrad';

/** Options of {@link batchNormTraining}. */
export interface BatchNormTrainingOptions {
  /** `'relu'` applies `max(y, 0)` to the output (fused into one kernel where the backend has it). @default 'linear' */
  readonly activation?: 'linear' | 'relu';
}

/** What {@link batchNormTraining} returns. */
export interface BatchNormTrainingResult<R extends tf.Rank> {
  /** x normalised with the batch statistics, then scaled and shifted. */
  readonly y: tf.Tensor<R>;
  /** Per-channel mean over every axis but the last. */
  readonly mean: tf.Tensor1D;
  /** Per-channel (biased) variance over every axis but the last. */
  readonly variance: tf.Tensor1D;
}

const registered = new Set<string>();

function registerGradientOnce(kernelName: string): void {
  if (registered.has(kernelName)) return;
  registered.add(kernelName);
  const relu = kernelName === BATCH_NORM_RELU_TRAINING;
  tf.registerGradient({
    kernelName,
    inputsToSave: ['x', 'scale'],
    // The ReLU variant keeps its output for ReLU's gradient mask (the next layer keeps it anyway).
    outputsToSave: [relu, true, true],
    gradFunc: (dys, saved, attrs) => {
      const [dy, dMean, dVariance] = dys as (tf.Tensor | null)[];
      const [x, scale, ...outputs] = saved as tf.Tensor[];
      const [y, mean, variance] = (relu ? outputs : [undefined, ...outputs]) as [tf.Tensor | undefined, tf.Tensor, tf.Tensor];
      const inputs: tf.NamedTensorMap = { dy: dy ?? tf.zerosLike(x!), x: x!, mean, variance };
      if (scale !== undefined) inputs['scale'] = scale;
      if (y !== undefined) inputs['y'] = y;
      const [dx, dScale, dOffset] = tf.engine().runKernel(BATCH_NORM_TRAINING_GRAD, inputs, attrs) as tf.Tensor[];
      // The statistics are outputs too: when they feed the loss, add their gradients (rare; running
      // statistics are updated outside the gradient's path). tfjs passes zeros, not null, for an output
      // the loss does not use, so a zero gradient is recognised by its values: reading a [channels]
      // vector back is cheap on the backends that register these kernels (their data is in CPU memory),
      // and it saves four passes over x per layer. Adding an exact zero would not change dx.
      const used = (d: tf.Tensor | null | undefined): d is tf.Tensor => d != null && (d.dataSync() as Float32Array).some((v) => v !== 0);
      const withMean = used(dMean);
      const withVariance = used(dVariance);
      const n = x!.size / (x!.shape[x!.rank - 1] ?? 1);
      const through = (): tf.Tensor =>
        tf.tidy(() => {
          let g = dx!;
          if (withMean) g = tf.add(g, tf.div(dMean!, n));
          if (withVariance) g = tf.add(g, tf.mul(tf.sub(x!, mean), tf.mul(dVariance!, 2 / n)));
          return g;
        });
      return { x: () => (withMean || withVariance ? through() : dx!), scale: () => dScale!, offset: () => dOffset! };
    },
  });
}

/**
 * Batch normalisation in training mode over the last axis (NHWC activations or [batch, features]):
 * y = (x − mean)·scale/√(variance + ε) + offset with the batch's per-channel mean and biased variance,
 * which are returned too (for running statistics). Differentiable in x, scale and offset, through the
 * statistics (as `tf.moments` followed by `tf.batchNorm`).
 *
 * When the active backend registers the {@link BATCH_NORM_TRAINING} kernel (`@mia/backend-native`
 * does), forward and backward run as one fused kernel each; otherwise this is exactly `tf.moments`
 * then `tf.batchNorm`. With `activation: 'relu'` the output is `tf.relu` of that, in the same kernel
 * where the backend registers {@link BATCH_NORM_RELU_TRAINING} (ReLU's gradient then folds into the
 * batch norm's).
 * @param x - activations, rank ≥ 2, float32.
 * @param scale - per-channel scale (γ), or undefined for 1.
 * @param offset - per-channel offset (β), or undefined for 0.
 * @param epsilon - added to the variance, > 0.
 * @param options - see {@link BatchNormTrainingOptions}.
 * @throws InvalidArgumentError when x has rank < 2, scale/offset are not vectors over the last axis, or
 *   the activation is unknown.
 */
export function batchNormTraining<R extends tf.Rank>(
  x: tf.Tensor<R>,
  scale: tf.Tensor | undefined,
  offset: tf.Tensor | undefined,
  epsilon: number,
  options: BatchNormTrainingOptions = {},
): BatchNormTrainingResult<R> {
  const channels = x.shape[x.rank - 1];
  if (x.rank < 2 || channels === undefined) throw new InvalidArgumentError(`batchNormTraining: x must have rank ≥ 2, got shape [${x.shape.join(',')}]`);
  for (const [name, t] of [
    ['scale', scale],
    ['offset', offset],
  ] as const) {
    if (t !== undefined && (t.rank !== 1 || t.shape[0] !== channels)) {
      throw new InvalidArgumentError(`batchNormTraining: ${name} must have shape [${channels}], got [${t.shape.join(',')}]`);
    }
  }
  if (!(epsilon > 0)) throw new InvalidArgumentError(`batchNormTraining: epsilon must be > 0, got ${epsilon}`);
  const activation = options.activation ?? 'linear';
  if (activation !== 'linear' && activation !== 'relu') {
    throw new InvalidArgumentError(`batchNormTraining: options.activation must be 'linear' or 'relu', got ${JSON.stringify(activation)}`);
  }
  const relu = activation === 'relu';
  const has = (kernel: string) => tf.getKernel(kernel, tf.getBackend()) !== undefined && x.dtype === 'float32';
  const kernel = relu && has(BATCH_NORM_RELU_TRAINING) ? BATCH_NORM_RELU_TRAINING : has(BATCH_NORM_TRAINING) ? BATCH_NORM_TRAINING : undefined;
  if (kernel !== undefined) {
    registerGradientOnce(kernel);
    // The gradient saves `scale`, and tfjs cannot save an absent input: no scale is passed as ones.
    const ones = scale === undefined ? tf.ones([channels]) : undefined;
    const inputs: tf.NamedTensorMap = { x, scale: scale ?? ones! };
    if (offset !== undefined) inputs['offset'] = offset;
    const [y, mean, variance] = tf.engine().runKernel(kernel, inputs, { varianceEpsilon: epsilon } as unknown as tf.NamedAttrMap) as tf.Tensor[];
    ones?.dispose();
    const out = relu && kernel === BATCH_NORM_TRAINING ? tf.relu(y!) : y!;
    return { y: out as tf.Tensor<R>, mean: mean as tf.Tensor1D, variance: variance as tf.Tensor1D };
  }
  const axes = Array.from({ length: x.rank - 1 }, (_, i) => i);
  const { mean, variance } = tf.moments(x, axes);
  const normalised = tf.batchNorm(x, mean, variance, offset as tf.Tensor1D | undefined, scale as tf.Tensor1D | undefined, epsilon);
  const y = relu ? tf.relu(normalised) : normalised;
  return { y: y as tf.Tensor<R>, mean: mean as tf.Tensor1D, variance: variance as tf.Tensor1D };
}
