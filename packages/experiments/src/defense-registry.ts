import * as tf from '@tensorflow/tfjs-core';
import { cosine, multiStep, constantLr, sgd, adam, train, predictLogits, type Classifier, type LabeledData, type LrSchedule, type Optimizer, type TrainingPlugin } from '@mia/core';
import { InvalidArgumentError } from '@mia/core';
import { cclPlugin } from '@mia/defense-ccl';
import { crlPlugin } from '@mia/defense-crl';
import { pastTune } from '@mia/defense-past';
import { samPlugin, sharpRegPlugin } from '@mia/sam';
import { confidencePenaltyPlugin, l1Plugin, labelSmoothingPlugin, memGuard, relaxLossPlugin, trainAdvReg, trainMemGuardAttackModel, trainMixupMmd, trainSelena, type MemGuardOptions } from '@mia/defense-baselines';
import type { TrainingConfig } from './config';

/** What a defense adapter gets to train one (target or shadow) model. */
export interface DefenseTrainContext {
  readonly model: Classifier;
  /** The model's training set (members). */
  readonly members: LabeledData;
  /** A disjoint non-member set the defense may use (PAST's inference set, AdvReg's reference set), when the partition has one. */
  readonly inference?: LabeledData;
  readonly training: TrainingConfig;
  readonly params: Record<string, unknown>;
  readonly seed: number;
  readonly label: string;
  readonly signal?: AbortSignal;
  /**
   * A fresh, untrained model of the run's architecture (for defenses that train several models,
   * e.g. SELENA's sub-models); each call gets the next initialisation seed. The caller disposes it.
   * When absent, such defenses fail with a clear error.
   */
  readonly createModel?: () => Classifier;
  /**
   * Trains `model` in place with another defense of the same run, reusing that defense's cached
   * unit when the store has it and caching it otherwise (PAST's phase 1 = the undefended model).
   * When absent, the base defense is trained here.
   */
  readonly trainBase?: (base: { readonly name: string; readonly params: Record<string, unknown> }) => Promise<void>;
}

/** The member and non-member logits of a trained unit, row-major `[n, C]`. */
export interface UnitLogits {
  readonly members: Float32Array;
  readonly nonMembers: Float32Array;
}

/**
 * A defense as the runner uses it: trains a model in place (or returns the model to use instead),
 * optionally changing the architecture's options and perturbing the released outputs.
 */
export interface DefenseAdapter {
  readonly name: string;
  /** Short description for reports. */
  readonly description: string;
  /** Whether the defense needs `inference` data. */
  readonly needsInference?: boolean;
  /** Model options this defense sets, merged over the config's (dropout's rate). Part of what the defense is. */
  modelOptions?(params: Record<string, unknown>): Record<string, unknown>;
  /**
   * Trains `ctx.model` in place, or returns another trained model of the same architecture to use
   * instead (SELENA's distilled model); the runner then disposes both.
   */
  trainModel(ctx: DefenseTrainContext): Promise<void | Classifier>;
  /**
   * Post-hoc output perturbation (MemGuard): gets the trained model's logits on its members and
   * non-members and returns the logits that are released to the attacker. The cached model stays
   * the unperturbed one; label-only attacks query it.
   */
  perturbLogits?(ctx: DefenseTrainContext, logits: UnitLogits): Promise<UnitLogits>;
}

/**
 * Copies every trainable and state variable of `from` into `to` (same architecture, same variable
 * order, e.g. two models of one `createModel` call shape).
 * @throws InvalidArgumentError when the variable lists differ in length or shape.
 */
export function copyWeights(from: Classifier, to: Classifier): void {
  const a = [...from.trainableVariables, ...from.stateVariables];
  const b = [...to.trainableVariables, ...to.stateVariables];
  const shapes = (vs: readonly tf.Variable[]) => vs.map((v) => `[${v.shape.join(',')}]`).join(' ');
  if (a.length !== b.length || a.some((v, i) => !tf.util.arraysEqual(v.shape, b[i]!.shape))) {
    throw new InvalidArgumentError(`copyWeights: the models must have the same variables, got ${shapes(a)} and ${shapes(b)}`);
  }
  a.forEach((v, i) => b[i]!.assign(v));
}

/** The optimizer and schedule of a training config (docs/protocol.md §2). */
export function optimizerFor(training: TrainingConfig): { optimizer: Optimizer; schedule: LrSchedule } {
  const optimizer = training.optimizer === 'adam'
    ? adam({ lr: training.lr, weightDecay: training.weightDecay })
    : sgd({ lr: training.lr, momentum: training.momentum, nesterov: training.nesterov, weightDecay: training.weightDecay });
  const s = training.schedule;
  const schedule = s.type === 'cosine' ? cosine(training.epochs) : s.type === 'multistep' ? multiStep(s.milestones, s.gamma) : constantLr;
  return { optimizer, schedule };
}

/**
 * Trains with the config's optimizer and schedule plus the given plugins; `epochs` stops the run
 * early while the schedule stays the full run's (early-stopping checkpoints, docs/protocol.md §4.11).
 */
export async function trainWithPlugins(ctx: DefenseTrainContext, plugins: readonly TrainingPlugin[], epochs = ctx.training.epochs): Promise<void> {
  const { optimizer, schedule } = optimizerFor(ctx.training);
  try {
    await train(ctx.model, ctx.members, {
      epochs,
      batchSize: ctx.training.batchSize,
      optimizer,
      schedule,
      plugins,
      seed: ctx.seed,
      label: ctx.label,
      ...(ctx.training.microBatchSize === undefined ? {} : { microBatchSize: ctx.training.microBatchSize }),
      ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
    });
  } finally {
    optimizer.dispose();
    for (const p of plugins) p.dispose?.();
  }
}

const registry = new Map<string, DefenseAdapter>();

/** Adds (or replaces) a defense adapter; library users can register their own defenses. */
export function registerDefense(adapter: DefenseAdapter): void {
  registry.set(adapter.name, adapter);
}

/** The adapter registered under `name`. @throws InvalidArgumentError listing the known names. */
export function getDefense(name: string): DefenseAdapter {
  const adapter = registry.get(name);
  if (adapter === undefined) throw new InvalidArgumentError(`defenses[].name must be one of ${[...registry.keys()].join(', ')}, got ${JSON.stringify(name)}`);
  return adapter;
}

/** Names of every registered defense. */
export function defenseNames(): string[] {
  return [...registry.keys()];
}

registerDefense({ name: 'none', description: 'undefended (cross-entropy)', trainModel: (ctx) => trainWithPlugins(ctx, []) });
registerDefense({ name: 'ccl', description: 'convex-concave loss (CCL, docs/protocol.md §4.2)', trainModel: (ctx) => trainWithPlugins(ctx, [cclPlugin(ctx.params)]) });
registerDefense({
  name: 'crl',
  description: 'center-based relaxed learning (CRL, docs/protocol.md §4.3)',
  trainModel: (ctx) => trainWithPlugins(ctx, [crlPlugin({ ...ctx.params, numClasses: ctx.model.numClasses, featureDim: ctx.model.featureDim, seed: ctx.seed } as Parameters<typeof crlPlugin>[0])]),
});
registerDefense({
  name: 'past',
  description: 'PAST: phase 1 (cross-entropy, or the defense in params.base) then privacy-aware sparsity tuning on the inference set (docs/protocol.md §4.1)',
  needsInference: true,
  modelOptions(params) {
    const base = params.base as { name?: unknown; params?: Record<string, unknown> } | undefined;
    return typeof base?.name === 'string' && base.name !== 'past' ? getDefense(base.name).modelOptions?.(base.params ?? {}) ?? {} : {};
  },
  async trainModel(ctx) {
    if (ctx.inference === undefined) throw new InvalidArgumentError(`defense past needs a partition with an inference set (PAST6 or CCL5), got none`);
    const { tuneEpochs = 20, lambda = 1e-5, alpha = 2.5, clamp, norm, adaptive, lr = 0.01, base } = ctx.params as { tuneEpochs?: number; lambda?: number; alpha?: number; clamp?: number; norm?: 'l1' | 'l2'; adaptive?: boolean; lr?: number; base?: { name?: unknown; params?: Record<string, unknown> } };
    // Phase 1: cross-entropy, or another defense (`base`) for PAST on top of it (PAST Table 2);
    // through `trainBase`, the same run's cached unit of that defense when there is one.
    if (base !== undefined && (typeof base !== 'object' || base === null || typeof base.name !== 'string' || base.name === 'past')) throw new InvalidArgumentError(`defense past: params.base must be { name: <a defense other than past>, params? }, got ${JSON.stringify(base)}`);
    const phase1 = { name: (base?.name as string | undefined) ?? 'none', params: base?.params ?? {} };
    const baseAdapter = getDefense(phase1.name);
    if (baseAdapter.perturbLogits !== undefined) throw new InvalidArgumentError(`defense past: params.base must be a training-time defense (PAST tunes the weights), got the output perturbation ${JSON.stringify(phase1.name)}`);
    if (ctx.trainBase !== undefined) await ctx.trainBase(phase1);
    else {
      const other = await baseAdapter.trainModel({ ...ctx, params: phase1.params });
      if (other !== undefined) {
        copyWeights(other, ctx.model);
        other.dispose();
      }
    }
    await pastTune(ctx.model, {
      members: ctx.members, nonMembers: ctx.inference, epochs: tuneEpochs, lambda, alpha, lr,
      batchSize: ctx.training.batchSize, seed: ctx.seed, label: `${ctx.label} (PAST tuning)`,
      ...(clamp === undefined ? {} : { clamp }), ...(norm === undefined ? {} : { norm }), ...(adaptive === undefined ? {} : { adaptive }),
      ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
    });
  },
});

type Params = Record<string, unknown>;
const pluginDefense = (name: string, description: string, make: (params: Params, ctx: DefenseTrainContext) => TrainingPlugin) =>
  registerDefense({ name, description, trainModel: (ctx) => trainWithPlugins(ctx, [make(ctx.params, ctx)]) });

pluginDefense('relaxloss', 'RelaxLoss (docs/protocol.md §4.5)', (p) => relaxLossPlugin(p as unknown as Parameters<typeof relaxLossPlugin>[0]));
pluginDefense('label-smoothing', 'label smoothing (docs/protocol.md §4.8)', (p) => labelSmoothingPlugin(p as unknown as Parameters<typeof labelSmoothingPlugin>[0]));
pluginDefense('confidence-penalty', 'confidence penalty (docs/protocol.md §4.9)', (p) => confidencePenaltyPlugin(p as unknown as Parameters<typeof confidencePenaltyPlugin>[0]));
pluginDefense('l1', 'L1 on conv/dense/BN weights (docs/protocol.md §4.12)', (p) => l1Plugin(p as unknown as Parameters<typeof l1Plugin>[0]));

function needInference(name: string, ctx: DefenseTrainContext): LabeledData {
  if (ctx.inference === undefined) throw new InvalidArgumentError(`defense ${name} needs a partition with an inference/reference set (PAST6 or CCL5), got none`);
  return ctx.inference;
}

registerDefense({
  name: 'advreg',
  description: 'adversarial regularisation, MLHospital schedule (docs/protocol.md §4.7)',
  needsInference: true,
  async trainModel(ctx) {
    const { optimizer, schedule } = optimizerFor(ctx.training);
    try {
      await trainAdvReg(ctx.model, ctx.members, needInference('advreg', ctx), { epochs: ctx.training.epochs, batchSize: ctx.training.batchSize, seed: ctx.seed, optimizer, schedule, ...ctx.params } as Parameters<typeof trainAdvReg>[3]);
    } finally {
      optimizer.dispose();
    }
  },
});
registerDefense({
  name: 'mixup-mmd',
  description: 'Mixup + MMD (docs/protocol.md §4.6)',
  needsInference: true,
  async trainModel(ctx) {
    await trainMixupMmd(ctx.model, ctx.members, needInference('mixup-mmd', ctx), { epochs: ctx.training.epochs, batchSize: ctx.training.batchSize, seed: ctx.seed, ...ctx.params } as Parameters<typeof trainMixupMmd>[3]);
  },
});

pluginDefense('sam', 'SAM, first-order, global L2 ε (docs/protocol.md §4.4)', (p) => samPlugin(p as unknown as Parameters<typeof samPlugin>[0]));
pluginDefense('sharpreg', 'SharpReg (λ, ρ, ξ) (docs/protocol.md §4.4)', (p) => sharpRegPlugin(p as unknown as Parameters<typeof sharpRegPlugin>[0]));

const num = (defense: string, params: Params, key: string, fallback?: number): number => {
  const v = params[key] ?? fallback;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new InvalidArgumentError(`defense ${defense}: params.${key} must be a finite number, got ${JSON.stringify(params[key])}`);
  return v;
};

registerDefense({
  name: 'dropout',
  description: 'dropout before the last layer, rate params.p (docs/protocol.md §4.10)',
  modelOptions: (params) => {
    const p = num('dropout', params, 'p');
    if (!(p >= 0 && p < 1)) throw new InvalidArgumentError(`defense dropout: params.p must be in [0, 1), got ${p}`);
    return { dropout: p };
  },
  trainModel: (ctx) => trainWithPlugins(ctx, []),
});
registerDefense({
  name: 'l2',
  description: 'L2: the SGD weight decay set to params.weightDecay (docs/protocol.md §4.12)',
  trainModel: (ctx) => {
    const weightDecay = num('l2', ctx.params, 'weightDecay');
    if (weightDecay < 0) throw new InvalidArgumentError(`defense l2: params.weightDecay must be ≥ 0, got ${weightDecay}`);
    return trainWithPlugins({ ...ctx, training: { ...ctx.training, weightDecay } }, []);
  },
});
registerDefense({
  name: 'early-stop',
  description: 'early stopping: the checkpoint after params.epochs epochs of the full run, whose schedule it keeps (docs/protocol.md §4.11)',
  trainModel: (ctx) => {
    const epochs = num('early-stop', ctx.params, 'epochs');
    if (!Number.isInteger(epochs) || epochs < 1 || epochs > ctx.training.epochs) throw new InvalidArgumentError(`defense early-stop: params.epochs must be an integer in [1, ${ctx.training.epochs}] (the run's epochs), got ${epochs}`);
    return trainWithPlugins(ctx, [], epochs);
  },
});

/**
 * MemGuard (docs/protocol.md §4.15): the undefended model, whose released logits are perturbed. The
 * defender's attack classifier is trained on the model's own members (label 1) and the partition's
 * inference/reference set (label 0); params: `attackEpochs` (default 100), `hidden`, and the
 * {@link MemGuardOptions} (`c1`, `c2`, `c3`, `maxC3`, `stepSize`, `maxIterations`).
 */
registerDefense({
  name: 'memguard',
  description: 'MemGuard: undefended training, then output perturbation against the defender\'s own attack model (docs/protocol.md §4.15)',
  needsInference: true,
  trainModel: (ctx) => trainWithPlugins(ctx, []),
  async perturbLogits(ctx, logits) {
    const reference = needInference('memguard', ctx);
    const { attackEpochs = 100, hidden, ...guard } = ctx.params as { attackEpochs?: number; hidden?: number[] } & MemGuardOptions;
    const c = ctx.model.numClasses;
    const memberLogits = tf.tensor2d(logits.members, [logits.members.length / c, c]);
    const referenceLogits = predictLogits(ctx.model, reference);
    const attack = trainMemGuardAttackModel(memberLogits, referenceLogits as tf.Tensor2D, { epochs: attackEpochs, seed: ctx.seed, ...(hidden === undefined ? {} : { hidden }) });
    tf.dispose([memberLogits, referenceLogits]);
    const perturb = (values: Float32Array): Float32Array => {
      const input = tf.tensor2d(values, [values.length / c, c]);
      const result = memGuard(input, attack, guard);
      const out = Float32Array.from(result.logits.dataSync() as Float32Array);
      tf.dispose([input, result.logits, result.probabilities]);
      return out;
    };
    try {
      return { members: perturb(logits.members), nonMembers: perturb(logits.nonMembers) };
    } finally {
      attack.dispose();
    }
  },
});

/**
 * SELENA (docs/protocol.md §4.14): Split-AI with `numModels` (K, default 25) sub-models, each member
 * excluded from `numExcluded` (L, default 10) of them, trained like the undefended model; then a
 * fresh model distilled on the members for `distillationEpochs` (default: the run's epochs).
 */
registerDefense({
  name: 'selena',
  description: 'SELENA: Split-AI ensemble then self-distillation (docs/protocol.md §4.14)',
  async trainModel(ctx) {
    if (ctx.createModel === undefined) throw new InvalidArgumentError('defense selena needs ctx.createModel (a factory of fresh models of the run\'s architecture), got none');
    const { numModels = 25, numExcluded = 10, distillationEpochs = ctx.training.epochs, assignmentSeed = 1000 } = ctx.params as { numModels?: number; numExcluded?: number; distillationEpochs?: number; assignmentSeed?: number };
    const { optimizer, schedule } = optimizerFor(ctx.training);
    const base = { batchSize: ctx.training.batchSize, schedule, label: ctx.label, ...(ctx.signal === undefined ? {} : { signal: ctx.signal }) };
    try {
      const result = await trainSelena(ctx.createModel, ctx.members, {
        numModels, numExcluded, seed: assignmentSeed,
        createOptimizer: () => optimizerFor(ctx.training).optimizer,
        splitAiTraining: { ...base, epochs: ctx.training.epochs, seed: ctx.seed, label: `${ctx.label} (Split-AI)` },
        distillationTraining: { ...base, epochs: distillationEpochs, optimizer, seed: ctx.seed, schedule: ctx.training.schedule.type === 'cosine' ? cosine(distillationEpochs) : schedule, label: `${ctx.label} (distillation)` },
      });
      return result.model;
    } finally {
      optimizer.dispose();
    }
  },
});
