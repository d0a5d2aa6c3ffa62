import { optionsSchema } from '@mia/core';
import { mixupMmdOptionsSchema, trainMixupMmd } from '@mia/defense-baselines';
import { defineDefense } from './definition';
import { inferenceOf } from './inference-of';
import { fieldsWithout, withRunOptimizer } from './train-helpers';
import { refuseTrainingAugmentation } from './training-augmentation';

/**
 * Mixup + MMD (docs/protocol.md §4.6): `@mia/defense-baselines`' own training loop, a mixup pass on
 * the members and an MMD pass that aligns them to the partition's inference set, with the run's
 * epochs, batch size, seed, optimizer and schedule; refuses `training.augment`.
 */
export const mixupMmdDefense = defineDefense({
  name: 'mixup-mmd',
  description: 'Mixup + MMD (docs/protocol.md §4.6)',
  needsInference: true,
  schema: optionsSchema(fieldsWithout(mixupMmdOptionsSchema.fields, 'epochs', 'batchSize', 'seed')),
  check: (_o, run) => refuseTrainingAugmentation(run),
  // The run's optimizer and schedule, as for every other defense (not MLHospital's fixed SGD 0.01 +
  // cosine, which leaves a short run's model untrained and the MMD pass without effect, §4.6).
  train: (ctx) => withRunOptimizer(ctx, (common) => trainMixupMmd(ctx.model, ctx.members, inferenceOf('mixup-mmd', ctx), { ...ctx.options, ...common })),
});
