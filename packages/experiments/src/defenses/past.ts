import { option, optionsSchema } from '@mia/core';
import { pastOptionsSchema, pastTune } from '@mia/defense-past';
import { defineDefense } from './definition';
import { inferenceOf } from './inference-of';
import { defenseParamIssues } from './validate-defenses';

const { epochs, lambda, alpha, clamp, norm, adaptive, lr, momentum, weightDecay } = pastOptionsSchema.fields;

/** PAST's params in a config: `@mia/defense-past`'s options (`tuneEpochs` = its `epochs`) and the phase-1 defense `base`. */
const pastSchema = optionsSchema({
  tuneEpochs: epochs,
  lambda,
  alpha,
  clamp,
  norm,
  adaptive,
  lr,
  momentum,
  weightDecay,
  base: option.group(
    {
      name: option.string({ required: true, description: 'A training-time defense other than past.' }),
      params: option.object({ default: {}, description: "That defense's params." }),
    },
    { description: 'Phase 1: the defense PAST tunes on top of (PAST Table 2); default: cross-entropy.' },
  ),
});

/**
 * PAST (docs/protocol.md §4.1): phase 1 is the run's unit of the `base` defense (cross-entropy by
 * default), from the cache when the run has it; phase 2 is {@link pastTune} on the inference set.
 */
export const pastDefense = defineDefense({
  name: 'past',
  description: 'PAST: phase 1 (cross-entropy, or the defense in params.base) then privacy-aware sparsity tuning on the inference set (docs/protocol.md §4.1)',
  needsInference: true,
  schema: pastSchema,
  check(o, run) {
    if (o.base === undefined) return [];
    const base = run.defenses.find(o.base.name);
    if (o.base.name === 'past' || base?.perturbLogits !== undefined) {
      return [{ path: 'base.name', expected: 'a training-time defense other than past (PAST tunes the weights)', got: JSON.stringify(o.base.name) }];
    }
    return defenseParamIssues(run.defenses, o.base.name, o.base.params, run, 'base');
  },
  modelOptions(o, defenses) {
    const base = o.base === undefined ? undefined : defenses.find(o.base.name);
    return base?.modelOptions?.(base.schema.parse(o.base!.params, `past: base ${o.base!.name}`), defenses) ?? {};
  },
  async train(ctx) {
    const o = ctx.options;
    await ctx.trainBase(o.base ?? { name: 'none', params: {} });
    await pastTune(ctx.model, {
      members: ctx.members,
      nonMembers: inferenceOf('past', ctx),
      batchSize: ctx.training.batchSize,
      seed: ctx.seed,
      label: `${ctx.label} (PAST tuning)`,
      signal: ctx.signal,
      augment: ctx.augment,
      epochs: o.tuneEpochs,
      lambda: o.lambda,
      alpha: o.alpha,
      clamp: o.clamp,
      norm: o.norm,
      adaptive: o.adaptive,
      lr: o.lr,
      momentum: o.momentum,
      weightDecay: o.weightDecay,
    });
  },
});
