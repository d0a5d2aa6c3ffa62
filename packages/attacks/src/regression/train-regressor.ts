import * as tf from '@tensorflow/tfjs-core';
import {
  InvalidArgumentError,
  ShapeMismatchError,
  adam,
  checkPositiveInteger,
  describeValue,
  labeledData,
  train,
  type Classifier,
  type Optimizer,
  type TrainingPlugin,
} from '@mia/core';

/** Options of {@link trainRegressor}. */
export interface TrainRegressorOptions {
  /**
   * The objective of one mini-batch: the network's outputs (`forward(x).logits`, `[b, k]`) and the
   * batch's targets (`[b]`) → a scalar, e.g. `(out, y) => pinballLoss(tf.slice(out, [0, 1], [-1, 1]), y, 0.99)`.
   */
  readonly loss: (output: tf.Tensor2D, target: tf.Tensor1D) => tf.Scalar;
  readonly epochs: number;
  readonly batchSize: number;
  /** The optimizer; the caller keeps ownership. @default Adam with `learningRate` (created and disposed here) */
  readonly optimizer?: Optimizer;
  /** Learning rate of the default optimizer. @default 1e-3 */
  readonly learningRate?: number;
  /** Seed of the batch order and of the network's stochastic layers. @default 0 */
  readonly seed?: number;
  /** Stops training between steps (throws `AbortError`). */
  readonly signal?: AbortSignal;
}

/**
 * Trains a network as a regressor of real-valued targets with a custom objective, through
 * `@mia/core`'s `train` (seeded shuffled batches, every step in `tf.tidy`; the same seed gives the
 * same weights on the same backend). The network is any `Classifier` whose `forward(x).logits`
 * are the regression outputs (e.g. `createAttackNetwork` with a 1- or 2-unit head; a 1-unit head's
 * outputs are `[0, z]`, so z is column 1). `@mia/core`'s loop is for classification: the targets
 * ride along by example index and the class labels it needs are all 0.
 *
 * @param network - The regressor; its `inputShape` must match `x.shape.slice(1)`.
 * @param x - Inputs `[n, ...inputShape]`; the caller keeps ownership.
 * @param targets - One finite target per row of `x`.
 * @param options - {@link TrainRegressorOptions}.
 * @returns The mean objective of each epoch.
 * @throws InvalidArgumentError / ShapeMismatchError on bad input, before any step.
 */
export async function trainRegressor(
  network: Classifier,
  x: tf.Tensor,
  targets: ArrayLike<number>,
  options: TrainRegressorOptions,
): Promise<{ losses: number[] }> {
  const fn = 'trainRegressor';
  if (typeof options?.loss !== 'function')
    throw new InvalidArgumentError(`${fn}: options.loss must be a function (output, target) => scalar, got ${describeValue(options?.loss)}`);
  checkPositiveInteger(fn, 'epochs', options.epochs);
  checkPositiveInteger(fn, 'batchSize', options.batchSize);
  const n = x.shape[0] ?? 0;
  if (targets === null || typeof targets !== 'object' || targets.length !== n)
    throw new ShapeMismatchError(`${fn}: targets must have one value per row of x (${n}), got ${describeValue(targets)}`);
  const values = Float32Array.from(targets);
  values.forEach((v, i) => {
    if (!Number.isFinite(v)) throw new InvalidArgumentError(`${fn}: targets[${i}] must be a finite number, got ${describeValue(targets[i])}`);
  });
  const lr = options.learningRate ?? 1e-3;
  if (!(lr > 0 && Number.isFinite(lr))) throw new InvalidArgumentError(`${fn}: learningRate must be a positive number, got ${describeValue(lr)}`);
  const y = tf.tensor1d(values);
  const objective: TrainingPlugin = {
    name: 'regression',
    loss: (ctx) => options.loss(ctx.logits, tf.gather(y, ctx.indices) as tf.Tensor1D),
  };
  const optimizer = options.optimizer ?? adam({ lr });
  try {
    const result = await train(network, labeledData({ x, y: new Int32Array(n), numClasses: network.numClasses }), {
      epochs: options.epochs,
      batchSize: options.batchSize,
      optimizer,
      seed: options.seed ?? 0,
      plugins: [objective],
      progressBar: false,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    return { losses: result.history.map((e) => e.loss) };
  } finally {
    y.dispose();
    if (options.optimizer === undefined) optimizer.dispose();
  }
}
