import { describeValue, option, optionsSchema, type LrSchedule, type Optimizer, type OptionField } from '@mia/core';
import { cclOptionsSchema, cclPlugin } from '@mia/defense-ccl';
import { crlOptionsSchema, crlPlugin, summarizeRelaxation } from '@mia/defense-crl';
import { samOptionsSchema, samPlugin, sharpRegOptionsSchema, sharpRegPlugin, type SharpRegPluginOptions } from '@mia/sam';
import {
  advRegOptionsSchema,
  confidencePenaltyOptionsSchema,
  confidencePenaltyPlugin,
  l1OptionsSchema,
  l1Plugin,
  labelSmoothingOptionsSchema,
  labelSmoothingPlugin,
  mixupMmdOptionsSchema,
  relaxLossOptionsSchema,
  relaxLossPlugin,
  trainAdvReg,
  trainMixupMmd,
} from '@mia/defense-baselines';
import { defineDefense, type DefenseDefinition, type DefenseTrainContext } from './definition';
import { dpSgdDefense } from './dp-sgd';
import { memGuardDefense, selenaDefense } from './output-defenses';
import { inferenceOf } from './inference-of';
import { pastDefense } from './past';
import { optimizerFor, trainWithPlugins } from './train-helpers';
import { refuseTrainingAugmentation } from './training-augmentation';

/** `fields` without `keys` (options the run sets itself: epochs, batch size, seed). */
function without<F extends Record<string, OptionField>, K extends keyof F>(fields: F, ...keys: K[]): Omit<F, K> {
  return Object.fromEntries(Object.entries(fields).filter(([k]) => !keys.includes(k as K))) as Omit<F, K>;
}

/**
 * Runs a baseline's own training loop with the run's epochs, batch size, seed, optimizer and
 * schedule (the optimizer is disposed afterwards).
 */
async function withRunOptimizer(
  ctx: DefenseTrainContext<unknown>,
  trainIt: (common: { epochs: number; batchSize: number; seed: number; optimizer: Optimizer; schedule: LrSchedule }) => Promise<unknown>,
): Promise<void> {
  const { optimizer, schedule } = optimizerFor(ctx.training);
  try {
    await trainIt({ epochs: ctx.training.epochs, batchSize: ctx.training.batchSize, seed: ctx.seed, optimizer, schedule });
  } finally {
    optimizer.dispose();
  }
}

const lrCenters = option.number({ min: 0, exclusiveMin: true, description: "Learning rate of the CRL centres' own SGD (default 0.001)." });

/** The defenses every run knows (docs/protocol.md §4); each validates its `params` with its package's schema. */
export const BUILTIN_DEFENSES: readonly DefenseDefinition<never>[] = [
  defineDefense({ name: 'none', description: 'undefended (cross-entropy)', schema: optionsSchema({}), train: (ctx) => trainWithPlugins(ctx, []) }),
  defineDefense({
    name: 'ccl',
    description: 'convex-concave loss (CCL, docs/protocol.md §4.2)',
    schema: cclOptionsSchema,
    train: (ctx) => trainWithPlugins(ctx, [cclPlugin(ctx.options)]),
  }),
  defineDefense({
    name: 'crl',
    description: 'center-based relaxed learning (CRL, docs/protocol.md §4.3)',
    schema: optionsSchema({ ...crlOptionsSchema.fields, lrCenters }),
    async train(ctx) {
      const plugin = crlPlugin({ ...ctx.options, numClasses: ctx.model.numClasses, featureDim: ctx.model.featureDim, seed: ctx.seed, onLog: ctx.log });
      await trainWithPlugins(ctx, [plugin]);
      // How often each relaxed branch fired (docs/protocol.md §4.3): a reproduction reads it from the result row.
      ctx.recordMetrics?.({ crlRelaxation: { summary: summarizeRelaxation(plugin.relaxation), epochs: plugin.relaxation } });
    },
  }),
  pastDefense,
  defineDefense({
    name: 'relaxloss',
    description: 'RelaxLoss (docs/protocol.md §4.5)',
    schema: relaxLossOptionsSchema,
    train: (ctx) => trainWithPlugins(ctx, [relaxLossPlugin(ctx.options)]),
  }),
  defineDefense({
    name: 'label-smoothing',
    description: 'label smoothing (docs/protocol.md §4.8)',
    schema: labelSmoothingOptionsSchema,
    train: (ctx) => trainWithPlugins(ctx, [labelSmoothingPlugin(ctx.options)]),
  }),
  defineDefense({
    name: 'confidence-penalty',
    description: 'confidence penalty (docs/protocol.md §4.9)',
    schema: confidencePenaltyOptionsSchema,
    train: (ctx) => trainWithPlugins(ctx, [confidencePenaltyPlugin(ctx.options)]),
  }),
  defineDefense({
    name: 'l1',
    description: 'L1 on conv/dense/BN weights (docs/protocol.md §4.12)',
    schema: l1OptionsSchema,
    train: (ctx) => trainWithPlugins(ctx, [l1Plugin(ctx.options)]),
  }),
  defineDefense({
    name: 'advreg',
    description: 'adversarial regularisation, MLHospital schedule (docs/protocol.md §4.7)',
    needsInference: true,
    schema: optionsSchema(without(advRegOptionsSchema.fields, 'epochs', 'batchSize', 'seed')),
    check: (_o, run) => refuseTrainingAugmentation(run),
    train: (ctx) => withRunOptimizer(ctx, (common) => trainAdvReg(ctx.model, ctx.members, inferenceOf('advreg', ctx), { ...ctx.options, ...common })),
  }),
  defineDefense({
    name: 'mixup-mmd',
    description: 'Mixup + MMD (docs/protocol.md §4.6)',
    needsInference: true,
    schema: optionsSchema(without(mixupMmdOptionsSchema.fields, 'epochs', 'batchSize', 'seed')),
    check: (_o, run) => refuseTrainingAugmentation(run),
    // The run's optimizer and schedule, as for every other defense (not MLHospital's fixed SGD 0.01 +
    // cosine, which leaves a short run's model untrained and the MMD pass without effect, §4.6).
    train: (ctx) => withRunOptimizer(ctx, (common) => trainMixupMmd(ctx.model, ctx.members, inferenceOf('mixup-mmd', ctx), { ...ctx.options, ...common })),
  }),
  defineDefense({
    name: 'sam',
    description: 'SAM, first-order, global L2 ε (docs/protocol.md §4.4)',
    schema: samOptionsSchema,
    train: (ctx) => trainWithPlugins(ctx, [samPlugin(ctx.options)]),
  }),
  defineDefense({
    name: 'sharpreg',
    description: 'SharpReg (λ, ρ, ξ) (docs/protocol.md §4.4)',
    schema: sharpRegOptionsSchema,
    check(o) {
      try {
        sharpRegPlugin(o as SharpRegPluginOptions);
        return [];
      } catch (error) {
        return [{ path: '', expected: 'either lambda and xi (with 1 + lambda − xi > 0), or beta', got: `${describeValue(o)} (${(error as Error).message})` }];
      }
    },
    train: (ctx) => trainWithPlugins(ctx, [sharpRegPlugin(ctx.options as SharpRegPluginOptions)]),
  }),
  defineDefense({
    name: 'dropout',
    description: 'dropout before the last layer, rate params.p (docs/protocol.md §4.10)',
    schema: optionsSchema({ p: option.number({ min: 0, max: 1, exclusiveMax: true, required: true, description: 'Dropout rate before the last layer.' }) }),
    modelOptions: (o) => ({ dropout: o.p }),
    train: (ctx) => trainWithPlugins(ctx, []),
  }),
  defineDefense({
    name: 'l2',
    description: 'L2: the SGD weight decay set to params.weightDecay (docs/protocol.md §4.12)',
    schema: optionsSchema({ weightDecay: option.number({ min: 0, required: true, description: "Replaces the run's weight decay." }) }),
    train: (ctx) => trainWithPlugins({ ...ctx, training: { ...ctx.training, weightDecay: ctx.options.weightDecay } }, []),
  }),
  defineDefense({
    name: 'early-stop',
    description: 'early stopping: the checkpoint after params.epochs epochs of the full run, whose schedule it keeps (docs/protocol.md §4.11)',
    schema: optionsSchema({
      epochs: option.integer({ min: 1, required: true, description: "Epochs trained, at most the run's; the schedule stays the full run's." }),
    }),
    check: (o, run) =>
      o.epochs > run.training.epochs
        ? [{ path: 'epochs', expected: `an integer in [1, ${run.training.epochs}] (the run's training.epochs)`, got: String(o.epochs) }]
        : [],
    train: (ctx) => trainWithPlugins(ctx, [], ctx.options.epochs),
  }),
  dpSgdDefense,
  memGuardDefense,
  selenaDefense,
] as unknown as readonly DefenseDefinition<never>[];
