import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError } from './errors';

/**
 * Name of the optional kernel a backend registers to compute {@link batchNormTraining} in one pass:
 * inputs `{x, scale?, offset?}`, attribute `varianceEpsilon`, outputs `[y, mean, variance]`.
 */
export const BATCH_NORM_TRAINING = 'MiaBatchNormTraining';

/**
 * Name of its gradient kernel: inputs `{dy, x, mean, variance, scale?}`, attribute `varianceEpsilon`,
 * outputs `[dx, dScale, dOffset]` (the gradient through the batch statistics).
 */
export const BATCH_NORM_TRAINING_GRAD = 'MiaBatchNormTrainingGrad';

/** What {@link batchNormTraining} returns. */
export interface BatchNormTrainingResult<R extends tf.Rank> {
  /** x normalised with the batch statistics, then scaled and shifted. */
  readonly y: tf.Tensor<R>;
  /** Per-channel mean over every axis but the last. */
  readonly mean: tf.Tensor1D;
  /** Per-channel (biased) variance over every axis but the last. */
  readonly variance: tf.Tensor1D;
}

let gradientRegistered = false;

function registerGradientOnce(): void {
  if (gradientRegistered) return;
  gradientRegistered = true;
  tf.registerGradient({
    kernelName: BATCH_NORM_TRAINING,
    inputsToSave: ['x', 'scale'],
    outputsToSave: [false, true, true],
    gradFunc: (dys, saved, attrs) => {
      const [dy, dMean, dVariance] = dys as (tf.Tensor | null)[];
      const [x, scale, mean, variance] = saved as [tf.Tensor, tf.Tensor | undefined, tf.Tensor, tf.Tensor];
      const inputs: tf.NamedTensorMap = { dy: dy ?? tf.zerosLike(x), x, mean, variance };
      if (scale !== undefined) inputs['scale'] = scale;
      const [dx, dScale, dOffset] = tf.engine().runKernel(BATCH_NORM_TRAINING_GRAD, inputs, attrs) as tf.Tensor[];
      // The statistics are outputs too: when they feed the loss, add their gradients (rare; running
      // statistics are updated outside the gradient's path).
      const n = x.size / (x.shape[x.rank - 1] ?? 1);
      const through = (): tf.Tensor =>
        tf.tidy(() => {
          let g = dx!;
          if (dMean !== null && dMean !== undefined) g = tf.add(g, tf.div(dMean, n));
          if (dVariance !== null && dVariance !== undefined) g = tf.add(g, tf.mul(tf.sub(x, mean), tf.mul(dVariance, 2 / n)));
          return g;
        });
      return { x: () => (dMean == null && dVariance == null ? dx! : through()), scale: () => dScale!, offset: () => dOffset! };
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
 * then `tf.batchNorm`.
 * @param x - activations, rank ≥ 2, float32.
 * @param scale - per-channel scale (γ), or undefined for 1.
 * @param offset - per-channel offset (β), or undefined for 0.
 * @param epsilon - added to the variance, > 0.
 * @throws InvalidArgumentError when x has rank < 2, or scale/offset are not vectors over the last axis.
 */
export function batchNormTraining<R extends tf.Rank>(
  x: tf.Tensor<R>,
  scale: tf.Tensor | undefined,
  offset: tf.Tensor | undefined,
  epsilon: number,
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
  if (tf.getKernel(BATCH_NORM_TRAINING, tf.getBackend()) !== undefined && x.dtype === 'float32') {
    registerGradientOnce();
    // The gradient saves `scale`, and tfjs cannot save an absent input: no scale is passed as ones.
    const ones = scale === undefined ? tf.ones([channels]) : undefined;
    const inputs: tf.NamedTensorMap = { x, scale: scale ?? ones! };
    if (offset !== undefined) inputs['offset'] = offset;
    const [y, mean, variance] = tf.engine().runKernel(BATCH_NORM_TRAINING, inputs, { varianceEpsilon: epsilon } as unknown as tf.NamedAttrMap) as tf.Tensor[];
    ones?.dispose();
    return { y: y as tf.Tensor<R>, mean: mean as tf.Tensor1D, variance: variance as tf.Tensor1D };
  }
  const axes = Array.from({ length: x.rank - 1 }, (_, i) => i);
  const { mean, variance } = tf.moments(x, axes);
  const y = tf.batchNorm(x, mean, variance, offset as tf.Tensor1D | undefined, scale as tf.Tensor1D | undefined, epsilon);
  return { y: y as tf.Tensor<R>, mean: mean as tf.Tensor1D, variance: variance as tf.Tensor1D };
}
