import * as tf from '@tensorflow/tfjs-core';
import {
  crossEntropy,
  deriveSeed,
  InvalidArgumentError,
  seededRandom,
  ShapeMismatchError,
  type BatchContext,
  type Classifier,
  type Gradients,
  type LabeledData,
  type Random,
  type TrainingPlugin,
} from '@mia/core';
import { nonMemberBatches, type NonMemberBatches } from './non-member-batches';
import { resolvePastOptions, type ResolvedPastOptions } from './past-options';
import { penaltyGradient, type PastPenaltyOptions } from './past-penalty';
import { privacySensitivity } from './privacy-sensitivity';
import { regularizedVariables, type RegularizedVariable, type RegularizedVariablesOptions } from './regularized-variables';

/** Options of {@link pastPlugin}. */
export interface PastPluginOptions extends PastPenaltyOptions, RegularizedVariablesOptions {
  /** The inference (non-member) set `S_n` whose batches drive γ. Required when `adaptive` is true. */
  readonly nonMembers?: LabeledData;
  /** Use the privacy sensitivity γ (PAST); `false` gives γ ≡ 1, i.e. plain L1/L2 tuning (PAST Fig. 5a). @default true */
  readonly adaptive?: boolean;
  /** Non-member batch size; docs/protocol.md A15 uses the member batch size. @default 128 */
  readonly batchSize?: number;
  /** Gradient accumulation for the non-member pass (BN then sees micro-batches). @default batchSize */
  readonly microBatchSize?: number;
  /** Seed of the non-member batch order (and of their dropout/augmentation). @default 0 */
  readonly seed?: number;
  /** Augmentation of non-member batches (PASTr loads the inference set with the training transform). */
  readonly augment?: (x: tf.Tensor, random: Random) => tf.Tensor;
}

function checkData(fn: string, model: Classifier, data: LabeledData): void {
  if (data.numClasses !== model.numClasses) {
    throw new ShapeMismatchError(`${fn}: nonMembers.numClasses must equal classifier.numClasses (${model.numClasses}), got ${data.numClasses}`);
  }
  if (data.inputShape.join(',') !== model.inputShape.join(',')) {
    throw new ShapeMismatchError(
      `${fn}: nonMembers.inputShape must equal classifier.inputShape [${model.inputShape.join(', ')}], got [${data.inputShape.join(', ')}]`,
    );
  }
}

/** Train-mode gradient of the mean non-member CE w.r.t. the regularised variables (missing = 0). */
function nonMemberGradients(
  ctx: BatchContext,
  data: LabeledData,
  indices: Int32Array,
  vars: readonly RegularizedVariable[],
  options: PastPluginOptions,
  resolved: ResolvedPastOptions,
): Gradients {
  let x = data.gather(indices);
  if (options.augment !== undefined) x = options.augment(x, seededRandom(deriveSeed(ctx.seed, 'pastNonMemberAugment')));
  const y = tf.tensor1d(
    Int32Array.from(indices, (i) => data.y[i]!),
    'int32',
  );
  const n = indices.length;
  const micro = Math.min(resolved.microBatchSize ?? n, n);
  const variables = vars.map((v) => v.variable);
  const total: Gradients = {};
  for (let start = 0; start < n; start += micro) {
    const size = Math.min(micro, n - start);
    const xs = size === n ? x : tf.slice(x, start, size);
    const ys = size === n ? y : tf.slice(y, start, size);
    const { grads } = tf.variableGrads(() => {
      const { logits } = ctx.model.forward(xs, { training: true, seed: deriveSeed(ctx.seed, 'pastNonMember', start) });
      return crossEntropy(logits, ys as tf.Tensor1D);
    }, variables);
    for (const v of variables) {
      const g = grads[v.name] === undefined ? tf.zerosLike(v) : tf.mul(grads[v.name]!, size / n);
      total[v.name] = total[v.name] === undefined ? g : tf.add(total[v.name]!, g);
    }
  }
  return total;
}

/**
 * PAST's tuning-phase update as a {@link TrainingPlugin} for `train` (PASTr `Normal.py::train_sparse`).
 * Each step: (1) train-mode forward/backward of the next non-member batch → `g_n` (BN running
 * statistics are updated, as in the authors' code); (2) the member gradient `g_m` of the run's
 * objective; (3) per regularised module weight, `γ = |g_m − g_n| / max(mean, eps_f32)`; (4) the
 * optimizer steps on `g_m + λ·min(γ^α, clamp)·sign(w)` (or `·2w` for `norm: 'l2'`). The optimizer
 * adds its own weight decay to every parameter as usual.
 *
 * With `adaptive: false` (γ ≡ 1) the plugin only adjusts gradients (`λ·sign(w)` / `2λw`), needs no
 * non-member data, and composes with a `step` plugin such as SAM. With `adaptive: true` it defines
 * `step`, so it cannot be combined with another `step` plugin.
 *
 * @param options - {@link PastPluginOptions}.
 * @returns A plugin; use it with a fresh optimizer and schedule (see {@link pastTune}).
 * @throws InvalidArgumentError on bad options, or when `adaptive` and `nonMembers` is missing or empty.
 * @throws ShapeMismatchError (at train start) when `nonMembers` does not match the classifier.
 * @see docs/protocol.md §4.1, §6 items 1–3, §7 A14–A16; PAST Eq. 3–4.
 */
export function pastPlugin(options: PastPluginOptions): TrainingPlugin {
  return createPastPlugin('pastPlugin', options, resolvePastOptions('pastPlugin', options));
}

/** {@link pastPlugin} with its options resolved once by {@link resolvePastOptions} (also {@link pastTune}'s path). @internal */
export function createPastPlugin(fn: string, options: PastPluginOptions, resolved: ResolvedPastOptions): TrainingPlugin {
  const { adaptive, seed } = resolved;
  const nonMembers = options.nonMembers;
  let batches: NonMemberBatches | undefined;
  if (adaptive) {
    if (nonMembers === undefined || nonMembers.size === 0) {
      throw new InvalidArgumentError(
        `${fn}: nonMembers must be a non-empty LabeledData when adaptive is true, got ${nonMembers === undefined ? 'undefined' : 'an empty dataset'}`,
      );
    }
    batches = nonMemberBatches(fn, nonMembers, resolved.batchSize, seed);
  }
  let cache: { model: Classifier; vars: RegularizedVariable[] } | undefined;
  const varsOf = (model: Classifier) => {
    if (cache?.model !== model) cache = { model, vars: regularizedVariables(fn, model, options) };
    return cache.vars;
  };
  const penalize = (model: Classifier, grads: Gradients, gammas?: Gradients): Gradients => {
    const out: Gradients = { ...grads };
    for (const { variable: v } of varsOf(model)) {
      const penalty = penaltyGradient(v, gammas?.[v.name], resolved);
      out[v.name] = grads[v.name] === undefined ? penalty : tf.add(grads[v.name]!, penalty);
    }
    return out;
  };

  const plugin: TrainingPlugin = {
    name: adaptive ? 'past' : `${resolved.norm}-tuning`,
    onTrainStart(info) {
      varsOf(info.model);
      if (nonMembers !== undefined) checkData(fn, info.model, nonMembers);
    },
  };
  if (!adaptive) return { ...plugin, adjustGradients: (ctx, grads) => penalize(ctx.model, grads) };
  return {
    ...plugin,
    step(ctx, tools) {
      const vars = varsOf(ctx.model);
      const gn = nonMemberGradients(ctx, nonMembers!, batches!.indicesAt(ctx.step), vars, options, resolved);
      const { loss, grads } = tools.computeGradients();
      const gammas: Gradients = {};
      for (const { variable: v } of vars) gammas[v.name] = privacySensitivity(grads[v.name] ?? tf.zerosLike(v), gn[v.name]!);
      tools.applyGradients(penalize(ctx.model, grads, gammas));
      return loss;
    },
  };
}
