import * as tf from '@tensorflow/tfjs-core';
import { check, crossEntropy, crossEntropyPerExample, deriveSeed, seededRandom, type Classifier, type LabeledData, type TrainingPlugin } from '@mia/core';
import { epsilonOf } from '../accountant/epsilon-of';
import { canaryHooks, type GradientCanaries } from '../audit/gradient-canaries';
import { tapedClippedSum } from '../ghost/taped-clipped-sum';
import type { PerExampleTape } from '../ghost/per-example-tape';
import { checkNoBatchNorm } from './check-no-batch-norm';
import { clippedGradientSum } from './clipped-gradient-sum';
import type { DpSgdFaults } from './dp-sgd-faults';
import { dpSgdOptionsSchema } from './dp-sgd-options';
import { poissonSample } from './poisson-sample';
import { privatize } from './privatize';

/** Options of {@link dpSgdPlugin}. */
export interface DpSgdPluginOptions {
  /** Clipping norm C > 0 of each per-example gradient (L2 over all trained variables jointly). */
  readonly clipNorm: number;
  /** Noise multiplier σ ≥ 0; pick it with {@link noiseMultiplierFor} for a target ε. */
  readonly noiseMultiplier: number;
  /**
   * `'poisson'`: every step draws its own batch from `data`, each example with probability
   * `sampleRate` (what the accountant assumes); the loop's batch only sets the number of steps, so
   * give `train` `batchSize ≈ sampleRate·data.size`. `'shuffle'`: the loop's shuffled fixed-size
   * batches, divided by their size — NOT covered by the accountant ({@link DpSgdPrivacy.covered} is false).
   * With `'poisson'`, `train`'s `augment` is not applied (the plugin gathers its own batches).
   * @default 'poisson'
   */
  readonly sampling?: 'poisson' | 'shuffle';
  /** Poisson rate q ∈ (0, 1]; required with `'poisson'`. */
  readonly sampleRate?: number;
  /** The training data (the same `train` gets); required with `'poisson'`. */
  readonly data?: LabeledData;
  /** Per-batch objective on the logits (the per-example loop's path). @default mean cross-entropy */
  readonly loss?: (logits: tf.Tensor2D, labels: tf.Tensor1D) => tf.Scalar;
  /**
   * The model's forward pass through a {@link PerExampleTape} (every trainable variable used once via
   * `tape.dense` / `tape.conv2d` / `tape.affine`): per-example norms and the clipped sum then come
   * per layer from one backward pass instead of one per example ({@link dpSgdTapedGradients}); the
   * objective is then per-example cross-entropy. Without it, one backward pass per example. For the
   * architectures of `@mia/models` (built with `norm: 'group'` or `'none'`) pass
   * `classifierTapedForward`. `options.seed` is the step's seed for stochastic layers (dropout).
   */
  readonly tapedForward?: (model: Classifier, x: tf.Tensor, tape: PerExampleTape, options: { readonly seed: number }) => tf.Tensor2D;
  /**
   * White-box canaries for a one-run privacy audit ({@link createGradientCanaries}): each included
   * canary joins every step's batch with probability q and adds its clipped gradient to the clipped
   * sum. Requires `sampling: 'poisson'` and a training from its first epoch.
   */
  readonly canaries?: GradientCanaries;
}

/** The privacy of the steps a {@link dpSgdPlugin} has run, from {@link epsilonOf}. */
export interface DpSgdPrivacy {
  readonly epsilon: number;
  readonly delta: number;
  /** The RDP order that gave ε. */
  readonly order: number;
  /** Steps run so far (also across a resumed run). */
  readonly steps: number;
  readonly sampleRate: number;
  readonly noiseMultiplier: number;
  readonly clipNorm: number;
  readonly sampling: 'poisson' | 'shuffle';
  /** False for shuffled batches: ε is then what Poisson sampling at the same rate would give, not a proven bound. */
  readonly covered: boolean;
}

/** A DP-SGD {@link TrainingPlugin} that also reports its privacy. */
export interface DpSgdPlugin extends TrainingPlugin {
  /** (ε, δ) of the steps run so far. */
  privacy(delta: number): DpSgdPrivacy;
}

/**
 * DP-SGD (Abadi et al. 2016) as a `TrainingPlugin` of `@mia/core`'s `train`: its `step` hook
 * replaces each update by the clipped, noised gradient (per-example gradients of all trained
 * variables clipped to L2 norm C, summed, N(0, σ²C²) noise per coordinate, divided by the expected
 * batch size q·N), then `tools.applyGradients` (so the run's optimizer, schedule and the other
 * plugins' `adjustGradients` — post-processing — apply). Other plugins' `loss` hooks are not used:
 * the objective is `options.loss`. Models with batch normalization are refused.
 *
 * `train` counts training accuracy only in its own gradient computation, which this plugin replaces:
 * under it `history[].accuracy` is 0 — measure accuracy with `evaluate` of `@mia/core`.
 *
 * Per-example gradients come from one backward pass per example (the generic path), or, with
 * `tapedForward`, from per-layer norms and one backward pass. With `canaries`, white-box gradient
 * canaries join the clipped sum for a one-run audit (`auditDpTraining`).
 *
 * @example
 * const dp = dpSgdPlugin({ data, sampleRate: 256 / data.size, clipNorm: 1, noiseMultiplier: 1.1 });
 * await train(model, data, { epochs: 20, batchSize: 256, optimizer: sgd({ lr: 0.5 }), plugins: [dp] });
 * dp.privacy(1e-5); // { epsilon, order, steps, covered: true, ... }
 * @throws InvalidArgumentError on bad options; at the first step, on a model with batch normalization.
 * @see Abadi et al. 2016, "Deep Learning with Differential Privacy" (arXiv:1607.00133) Alg. 1; docs/protocol.md §4.16
 */
export function dpSgdPlugin(options: DpSgdPluginOptions): DpSgdPlugin {
  return createDpSgdPlugin(options, {});
}

/**
 * {@link dpSgdPlugin} with deliberate implementation bugs ({@link DpSgdFaults}), for the audit's tests
 * and benchmark only. Not exported from the package.
 * @internal
 */
export function createDpSgdPlugin(options: DpSgdPluginOptions, faults: DpSgdFaults): DpSgdPlugin {
  const fn = 'dpSgdPlugin';
  const o = dpSgdOptionsSchema.parse(options, fn, { allowUnknown: true });
  const data = options.data;
  if (o.sampling === 'poisson') {
    check(o.sampleRate !== undefined, fn, 'sampleRate', "a number in (0, 1] with sampling 'poisson'", o.sampleRate);
    check(typeof data?.gather === 'function' && data.y instanceof Int32Array, fn, 'data', "the training data (a LabeledData) with sampling 'poisson'", data);
  }
  check(options.loss === undefined || typeof options.loss === 'function', fn, 'loss', 'a function (logits, labels) => scalar', options.loss);
  check(
    options.tapedForward === undefined || typeof options.tapedForward === 'function',
    fn,
    'tapedForward',
    'a function (model, x, tape, options) => logits',
    options.tapedForward,
  );
  check(
    options.tapedForward === undefined || options.loss === undefined,
    fn,
    'loss',
    'absent with tapedForward (the taped path uses per-example cross-entropy)',
    'a function',
  );
  const canaries = options.canaries === undefined ? undefined : canaryHooks(options.canaries);
  check(options.canaries === undefined || canaries !== undefined, fn, 'canaries', 'gradient canaries from createGradientCanaries', options.canaries);
  check(canaries === undefined || o.sampling === 'poisson', fn, 'canaries', "absent with sampling 'shuffle' (canaries join Poisson batches)", 'canaries');
  const lossOf = options.loss ?? crossEntropy;
  const checked = new WeakSet<Classifier>();
  let steps = 0;
  let nominalRate = o.sampleRate ?? NaN;

  const clip = faults.skipClipping !== true;
  const canaryVariable = canaries?.variable;
  return {
    name: `dp-sgd(C=${o.clipNorm}, σ=${o.noiseMultiplier}, ${o.sampling})`,
    ...(canaryVariable === undefined ? {} : { variables: [canaryVariable] }),
    onTrainStart(info) {
      checkNoBatchNorm(fn, info.model);
      checked.add(info.model);
      if (canaries !== undefined) {
        check(info.epoch === 0, fn, 'canaries', 'used in a training from its first epoch (not a resumed one)', `a run resumed at epoch ${info.epoch}`);
        canaries.start(info.model);
      }
    },
    step(ctx, tools) {
      if (!checked.has(ctx.model)) {
        checkNoBatchNorm(fn, ctx.model);
        checked.add(ctx.model);
      }
      let x = ctx.x;
      let labels = ctx.labels;
      let expectedBatchSize = ctx.indices.length;
      if (o.sampling === 'poisson') {
        const indices = poissonSample(data!.size, { sampleRate: o.sampleRate!, random: seededRandom(deriveSeed(ctx.seed, 'dp-sgd-poisson')) });
        x = data!.gather(indices);
        labels = tf.tensor1d(
          Int32Array.from(indices, (i) => data!.y[i]!),
          'int32',
        );
        expectedBatchSize = o.sampleRate! * data!.size;
      } else nominalRate = 1 / ctx.batchesPerEpoch;
      const n = x.shape[0]!;
      const taped = options.tapedForward;
      // The canaries' variable takes no part in the examples' gradients (they never touch it).
      const trained = canaryVariable === undefined ? tools.variables : tools.variables.filter((v) => v !== canaryVariable);
      const { sums: trainedSums, lossSum } =
        taped === undefined
          ? clippedGradientSum(
              (i) => {
                const { logits } = ctx.model.forward(tf.slice(x, i, 1), { training: true, seed: deriveSeed(ctx.seed, 'dp-sgd-example', i) });
                return lossOf(logits, tf.slice(labels, i, 1));
              },
              n,
              trained,
              o.clipNorm,
              clip,
            )
          : tapedClippedSum(
              fn,
              (xb, tape) => crossEntropyPerExample(taped(ctx.model, xb, tape, { seed: deriveSeed(ctx.seed, 'dp-sgd-taped') }), labels),
              x,
              trained,
              o.clipNorm,
              clip,
            );
      let sums = trainedSums;
      if (canaries !== undefined) {
        const all = tools.variables.map((v) => (v === canaryVariable ? tf.zeros(v.shape) : trainedSums[trained.indexOf(v)]!));
        sums = canaries.addTo(all, tools.variables, { sampleRate: o.sampleRate!, clipNorm: o.clipNorm, seed: deriveSeed(ctx.seed, 'dp-sgd-canaries'), clip });
        tf.dispose(all.filter((t) => !sums.includes(t)));
      }
      let noiseStd = o.noiseMultiplier * o.clipNorm * (faults.noiseScale ?? 1);
      if (faults.noiseNotScaledWithBatch === true) noiseStd /= Math.max(n, 1);
      const grads = privatize(sums, tools.variables, {
        clipNorm: o.clipNorm,
        noiseMultiplier: o.noiseMultiplier,
        expectedBatchSize,
        seed: deriveSeed(ctx.seed, 'dp-sgd'),
        noiseStd,
      });
      tf.dispose(sums);
      tools.applyGradients(grads);
      tf.dispose(Object.values(grads)); // privatize keeps them out of any tidy
      steps = ctx.step + 1;
      const meanLoss = tf.div(lossSum, Math.max(n, 1)) as tf.Scalar;
      return meanLoss;
    },
    privacy(delta: number): DpSgdPrivacy {
      check(typeof delta === 'number' && delta > 0 && delta < 1, 'dpSgdPlugin.privacy', 'delta', 'a number in (0, 1)', delta);
      const q = faults.accountedSampleRate ?? (Number.isNaN(nominalRate) ? 0 : nominalRate);
      const { epsilon, order } = epsilonOf({ sampleRate: q, noiseMultiplier: o.noiseMultiplier, steps, delta });
      return {
        epsilon,
        delta,
        order,
        steps,
        sampleRate: q,
        noiseMultiplier: o.noiseMultiplier,
        clipNorm: o.clipNorm,
        sampling: o.sampling,
        covered: o.sampling === 'poisson',
      };
    },
  };
}
