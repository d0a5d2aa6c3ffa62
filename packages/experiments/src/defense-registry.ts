import { cosine, multiStep, constantLr, sgd, adam, train, type Classifier, type LabeledData, type LrSchedule, type Optimizer, type TrainingPlugin } from '@mia/core';
import { InvalidArgumentError } from '@mia/core';
import { cclPlugin } from '@mia/defense-ccl';
import { crlPlugin } from '@mia/defense-crl';
import { pastTune } from '@mia/defense-past';
import { samPlugin, sharpRegPlugin } from '@mia/sam';
import { confidencePenaltyPlugin, l1Plugin, labelSmoothingPlugin, relaxLossPlugin, trainAdvReg, trainMixupMmd } from '@mia/defense-baselines';
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
}

/** A defense as the runner uses it: trains a model in place. */
export interface DefenseAdapter {
  readonly name: string;
  /** Short description for reports. */
  readonly description: string;
  /** Whether the defense needs `inference` data. */
  readonly needsInference?: boolean;
  trainModel(ctx: DefenseTrainContext): Promise<void>;
}

/** The optimizer and schedule of a training config (PROTOCOL.md §2). */
export function optimizerFor(training: TrainingConfig): { optimizer: Optimizer; schedule: LrSchedule } {
  const optimizer = training.optimizer === 'adam'
    ? adam({ lr: training.lr, weightDecay: training.weightDecay })
    : sgd({ lr: training.lr, momentum: training.momentum, nesterov: training.nesterov, weightDecay: training.weightDecay });
  const s = training.schedule;
  const schedule = s.type === 'cosine' ? cosine(training.epochs) : s.type === 'multistep' ? multiStep(s.milestones, s.gamma) : constantLr;
  return { optimizer, schedule };
}

/** Trains with the config's optimizer and schedule plus the given plugins. */
export async function trainWithPlugins(ctx: DefenseTrainContext, plugins: readonly TrainingPlugin[]): Promise<void> {
  const { optimizer, schedule } = optimizerFor(ctx.training);
  try {
    await train(ctx.model, ctx.members, {
      epochs: ctx.training.epochs,
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
registerDefense({ name: 'ccl', description: 'convex-concave loss (CCL, PROTOCOL.md §4.2)', trainModel: (ctx) => trainWithPlugins(ctx, [cclPlugin(ctx.params)]) });
registerDefense({
  name: 'crl',
  description: 'center-based relaxed learning (CRL, PROTOCOL.md §4.3)',
  trainModel: (ctx) => trainWithPlugins(ctx, [crlPlugin({ ...ctx.params, numClasses: ctx.model.numClasses, featureDim: ctx.model.featureDim, seed: ctx.seed } as Parameters<typeof crlPlugin>[0])]),
});
registerDefense({
  name: 'past',
  description: 'PAST: phase 1 (cross-entropy, or the defense in params.base) then privacy-aware sparsity tuning on the inference set (PROTOCOL.md §4.1)',
  needsInference: true,
  async trainModel(ctx) {
    if (ctx.inference === undefined) throw new InvalidArgumentError(`defense past needs a partition with an inference set (PAST6 or CCL5), got none`);
    const { tuneEpochs = 20, lambda = 1e-5, alpha = 2.5, clamp, norm, adaptive, lr = 0.01, base } = ctx.params as { tuneEpochs?: number; lambda?: number; alpha?: number; clamp?: number; norm?: 'l1' | 'l2'; adaptive?: boolean; lr?: number; base?: { name?: unknown; params?: Record<string, unknown> } };
    // Phase 1: cross-entropy, or another defense (`base`) for PAST on top of it (PAST Table 2).
    if (base === undefined) await trainWithPlugins(ctx, []);
    else {
      if (typeof base !== 'object' || base === null || typeof base.name !== 'string' || base.name === 'past') throw new InvalidArgumentError(`defense past: params.base must be { name: <a defense other than past>, params? }, got ${JSON.stringify(base)}`);
      await getDefense(base.name).trainModel({ ...ctx, params: base.params ?? {} });
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

pluginDefense('relaxloss', 'RelaxLoss (PROTOCOL.md §4.5)', (p) => relaxLossPlugin(p as unknown as Parameters<typeof relaxLossPlugin>[0]));
pluginDefense('label-smoothing', 'label smoothing (PROTOCOL.md §4.8)', (p) => labelSmoothingPlugin(p as unknown as Parameters<typeof labelSmoothingPlugin>[0]));
pluginDefense('confidence-penalty', 'confidence penalty (PROTOCOL.md §4.9)', (p) => confidencePenaltyPlugin(p as unknown as Parameters<typeof confidencePenaltyPlugin>[0]));
pluginDefense('l1', 'L1 on conv/dense/BN weights (PROTOCOL.md §4.12)', (p) => l1Plugin(p as unknown as Parameters<typeof l1Plugin>[0]));

function needInference(name: string, ctx: DefenseTrainContext): LabeledData {
  if (ctx.inference === undefined) throw new InvalidArgumentError(`defense ${name} needs a partition with an inference/reference set (PAST6 or CCL5), got none`);
  return ctx.inference;
}

registerDefense({
  name: 'advreg',
  description: 'adversarial regularisation, MLHospital schedule (PROTOCOL.md §4.7)',
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
  description: 'Mixup + MMD (PROTOCOL.md §4.6)',
  needsInference: true,
  async trainModel(ctx) {
    await trainMixupMmd(ctx.model, ctx.members, needInference('mixup-mmd', ctx), { epochs: ctx.training.epochs, batchSize: ctx.training.batchSize, seed: ctx.seed, ...ctx.params } as Parameters<typeof trainMixupMmd>[3]);
  },
});

pluginDefense('sam', 'SAM, first-order, global L2 ε (PROTOCOL.md §4.4)', (p) => samPlugin(p as unknown as Parameters<typeof samPlugin>[0]));
pluginDefense('sharpreg', 'SharpReg (λ, ρ, ξ) (PROTOCOL.md §4.4)', (p) => sharpRegPlugin(p as unknown as Parameters<typeof sharpRegPlugin>[0]));
