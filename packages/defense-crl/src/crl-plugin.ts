import { InvalidArgumentError, ShapeMismatchError, checkPositiveInteger, sgd, type Optimizer, type TrainingPlugin } from '@mia/core';
import * as tf from '@tensorflow/tfjs-core';
import { createClassCenters } from './class-centers';
import { crlObjective } from './crl-loss';
import { resolveCrlOptions, type CrlOptions } from './crl-options';
import { checkAboveLogitFloor } from './logit-normalization-floor';
import { createRelaxationCounter, formatRelaxationEpoch, type RelaxationEpochCounts } from './relaxation-counter';

/** Options of {@link crlPlugin}. */
export interface CrlPluginOptions extends CrlOptions {
  /** Number of classes C of the model. */
  readonly numClasses: number;
  /** Width d of the model's `features`. */
  readonly featureDim: number;
  /** Learning rate of the centres' own SGD (momentum 0.9, wd 5e-4, constant). @default 0.001 */
  readonly lrCenters?: number;
  /** Replaces the centres' optimizer entirely (then `lrCenters` is ignored). */
  readonly centerOptimizer?: Optimizer;
  /**
   * How the centres step. `'code'`: on the gradient of the whole objective, `λ·∂L_rcl/∂c`, as the
   * authors' code does (one backward pass over model and centres). `'paper'`: on `∂L_rcl/∂c`, as CRL's
   * Algorithm 1 (line 24) writes it, without λ: the centres' gradients are divided by λ before their
   * optimizer steps (λ > 0). At λ = 0.01 the two differ by 100× in the centres' step.
   * @default 'code'
   */
  readonly centerStep?: 'code' | 'paper';
  /** Seed of the centres' N(0, 1) initialisation. @default 0 */
  readonly seed?: number;
  /** Receives one line per epoch with how often each relaxed branch fired ({@link formatRelaxationEpoch}). */
  readonly onLog?: (line: string) => void;
}

/** A CRL plugin; it owns the centres and their optimizer (free them with `dispose()`). */
export interface CrlPlugin extends TrainingPlugin {
  /** The learnable class centres `[C, d]`, or `undefined` for `components: 'impRelaxLoss'`. */
  readonly centers: tf.Variable | undefined;
  /** Per finished epoch, how often each relaxed branch fired (docs/protocol.md §4.3); readable after `dispose()`. */
  readonly relaxation: readonly RelaxationEpochCounts[];
  dispose(): void;
}

/**
 * CRL as a `TrainingPlugin` for `@mia/core`'s `train`: replaces the objective by
 * `ImpRelaxLoss + λ·relaxed centre loss` on the batch logits and features, with the class
 * centres as plugin `variables` stepped **only** by their own optimizer (SGD lr_c = 0.001,
 * momentum 0.9, wd 5e-4, no schedule) on the same backward pass, so their gradient is
 * `λ·∂L_rcl/∂c`. Epoch parity uses `train`'s 0-based epoch plus `parityOffset` (default 1).
 * Per epoch it counts the batches on which each relaxed branch fired (`relaxation`, `onLog`),
 * accumulated on the device and read once at the epoch's end.
 *
 * @throws InvalidArgumentError on bad options, including `alpha` at or below the
 *   logit-normalisation floor for (t, C) (the message gives the floor, docs/protocol.md A18).
 * @throws ShapeMismatchError (when training starts) when the model's `featureDim` or `numClasses` differ from the options.
 * @see CRL Algorithm 1; docs/protocol.md §4.3, §2.6, A18, A21.
 */
export function crlPlugin(options: CrlPluginOptions): CrlPlugin {
  const fn = 'crlPlugin';
  checkPositiveInteger(fn, 'numClasses', options.numClasses);
  checkPositiveInteger(fn, 'featureDim', options.featureDim);
  const o = resolveCrlOptions(fn, options);
  checkAboveLogitFloor(fn, o.alpha, o.t, options.numClasses);
  const centers = o.useCenters ? createClassCenters(options.numClasses, options.featureDim, { seed: options.seed ?? 0 }) : undefined;
  const base = options.centerOptimizer ?? sgd({ lr: options.lrCenters ?? 0.001, momentum: 0.9, weightDecay: 5e-4 });
  const centerStep = options.centerStep ?? 'code';
  if (centerStep !== 'code' && centerStep !== 'paper')
    throw new InvalidArgumentError(`${fn}: centerStep must be 'code' or 'paper', got ${JSON.stringify(centerStep)}`);
  if (centerStep === 'paper' && o.useCenters && !(o.lambda > 0))
    throw new InvalidArgumentError(`${fn}: centerStep 'paper' divides the centres' gradient by λ, so lambda must be > 0, got ${o.lambda}`);
  const optimizer = centerStep === 'paper' && o.useCenters ? gradientScaled(base, 1 / o.lambda) : base;
  const counter = createRelaxationCounter(o.alpha, o.alphaCenter, o.useCenters, o.parityOffset);
  const relaxation: RelaxationEpochCounts[] = [];
  return {
    name: `crl(${o.components})`,
    centers,
    relaxation,
    variables: centers === undefined ? [] : [centers],
    optimizer,
    onTrainStart(info) {
      if (info.model.featureDim !== options.featureDim || info.model.numClasses !== options.numClasses) {
        throw new ShapeMismatchError(
          `${fn}: the model must have featureDim ${options.featureDim} and numClasses ${options.numClasses}, got featureDim ${info.model.featureDim} and numClasses ${info.model.numClasses}`,
        );
      }
    },
    loss(ctx) {
      if (ctx.features.shape[1] !== options.featureDim) {
        throw new ShapeMismatchError(`${fn}: model features must be [B, ${options.featureDim}] (featureDim), got [${ctx.features.shape.join(', ')}]`);
      }
      return crlObjective(
        fn,
        { logits: ctx.logits, features: ctx.features, labels: ctx.labels, centers: centers as tf.Tensor2D | undefined },
        o,
        ctx.epoch,
        counter,
      );
    },
    onEpochEnd(info) {
      const counts = counter.endEpoch(info.epoch);
      relaxation.push(counts);
      options.onLog?.(formatRelaxationEpoch(counts));
    },
    dispose() {
      counter.dispose();
      centers?.dispose();
      optimizer.dispose();
    },
  };
}

/**
 * `optimizer` stepping on its gradients times `factor` (CRL Algorithm 1's centre step, {@link
 * CrlPluginOptions.centerStep}): the scaled gradients are temporaries, the buffers are the wrapped
 * optimizer's.
 */
function gradientScaled(optimizer: Optimizer, factor: number): Optimizer {
  return {
    name: optimizer.name,
    learningRate: optimizer.learningRate,
    applyGradients(variables, grads, lr) {
      const scaled = Object.fromEntries(Object.entries(grads).map(([name, g]) => [name, tf.mul(g, factor)]));
      try {
        optimizer.applyGradients(variables, scaled, lr);
      } finally {
        for (const g of Object.values(scaled)) g.dispose();
      }
    },
    getState: () => optimizer.getState(),
    setState: (state) => optimizer.setState(state),
    dispose: () => optimizer.dispose(),
  };
}
