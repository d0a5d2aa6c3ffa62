import * as tf from '@tensorflow/tfjs-core';
import { check, optionsSchema, type Random } from '@mia/core';
import { clippedGradientSum } from './clipped-gradient-sum';
import { dpSgdOptionsSchema } from './dp-sgd-options';
import { privatize } from './privatize';

/** A batch for {@link dpSgdGradients}: examples `[n, ...]` and their targets `[n, ...]` (labels or one-hot rows). */
export interface DpSgdBatch {
  readonly x: tf.Tensor;
  readonly y: tf.Tensor;
}

/** Options of {@link dpSgdGradients}. */
export interface DpSgdGradientsOptions {
  /** The variables to differentiate (e.g. `model.trainableWeights.map((w) => w.read())`); the clipping norm is over all of them jointly. */
  readonly variables: readonly tf.Variable[];
  /** Clipping norm C > 0. */
  readonly clipNorm: number;
  /** Noise multiplier σ ≥ 0 (0 = no noise, no privacy). */
  readonly noiseMultiplier: number;
  /** The divisor: q·N for a Poisson batch at rate q of N examples (not the drawn batch size, which would leak it). */
  readonly expectedBatchSize: number;
  /** Noise source; one draw per call, so pass the same `seededRandom(seed)` every step (never a fresh one with the same seed: repeated noise cancels). */
  readonly random: Random;
}

/** What {@link dpSgdGradients} returns; the caller disposes `grads` and `loss`. */
export interface DpSgdGradientsResult {
  /** The private gradient per variable, keyed by `variable.name` (what `optimizer.applyGradients` takes). */
  readonly grads: Record<string, tf.Tensor>;
  /** Mean per-example loss of the batch (0 for an empty batch); for logging only, it is not private. */
  readonly loss: tf.Scalar;
  /** Number of examples in the batch. */
  readonly batchSize: number;
}

const schema = optionsSchema({
  clipNorm: dpSgdOptionsSchema.fields.clipNorm,
  noiseMultiplier: dpSgdOptionsSchema.fields.noiseMultiplier,
  expectedBatchSize: { ...dpSgdOptionsSchema.fields.clipNorm, description: 'q·N' },
});

/**
 * One DP-SGD gradient for a plain TensorFlow.js model (Abadi et al. 2016, Algorithm 1): per-example
 * gradients of `loss` over all `variables` jointly, each clipped to L2 norm C, summed, plus Gaussian
 * noise N(0, σ²C²) per coordinate, divided by the expected batch size. Draw the batch with
 * {@link poissonSample} so that {@link epsilonOf} accounts for it.
 *
 * Per-example gradients come from one backward pass per example (`loss` is called on each
 * example alone, `[1, ...]`): correct for every model, but B times the cost of one batch pass.
 *
 * @param loss - the mean loss of a batch `(x, y) ↦ scalar` (called on batches of one example).
 * @throws InvalidArgumentError on bad options, or when `x` and `y` differ in length.
 * @see Abadi et al. 2016, "Deep Learning with Differential Privacy" (arXiv:1607.00133) Alg. 1; docs/protocol.md §4.16
 */
export function dpSgdGradients(loss: (x: tf.Tensor, y: tf.Tensor) => tf.Scalar, batch: DpSgdBatch, options: DpSgdGradientsOptions): DpSgdGradientsResult {
  const fn = 'dpSgdGradients';
  const o = schema.parse(options, fn, { allowUnknown: true });
  check(typeof loss === 'function', fn, 'loss', 'a function (x, y) => scalar', loss);
  check(Array.isArray(options.variables) && options.variables.length > 0, fn, 'variables', 'a non-empty array of tf.Variable', options.variables);
  check(typeof options.random?.uint32 === 'function', fn, 'random', 'a Random (seededRandom from @mia/core)', options.random);
  const n = batch.x.shape[0] ?? 0;
  check(batch.y.shape[0] === n, fn, 'batch.y', `${n} rows (one per example of batch.x)`, `${batch.y.shape[0]} rows`);
  const seed = options.random.uint32();
  const { sums, lossSum } = clippedGradientSum((i) => loss(tf.slice(batch.x, i, 1), tf.slice(batch.y, i, 1)), n, options.variables, o.clipNorm);
  const grads = privatize(sums, options.variables, { ...o, seed });
  const meanLoss = tf.div(lossSum, Math.max(n, 1)) as tf.Scalar;
  tf.dispose([...sums, lossSum]);
  return { grads, loss: meanLoss, batchSize: n };
}
