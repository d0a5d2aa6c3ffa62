import { optionsSchema } from '@mia/core';
import { advRegOptionsSchema, trainAdvReg } from '@mia/defense-baselines';
import { defineDefense } from './definition';
import { inferenceOf } from './inference-of';
import { fieldsWithout, withRunOptimizer } from './train-helpers';
import { refuseTrainingAugmentation } from './training-augmentation';

/**
 * Adversarial regularisation with MLHospital's schedule (docs/protocol.md §4.7): `@mia/defense-baselines`'
 * own training loop, the target against an attack model that learns to tell its members from the
 * partition's inference set, with the run's epochs, batch size, seed, optimizer and schedule; refuses
 * `training.augment`.
 */
export const advRegDefense = defineDefense({
  name: 'advreg',
  description: 'adversarial regularisation, MLHospital schedule (docs/protocol.md §4.7)',
  needsInference: true,
  schema: optionsSchema(fieldsWithout(advRegOptionsSchema.fields, 'epochs', 'batchSize', 'seed')),
  check: (_o, run) => refuseTrainingAugmentation(run),
  train: (ctx) => withRunOptimizer(ctx, (common) => trainAdvReg(ctx.model, ctx.members, inferenceOf('advreg', ctx), { ...ctx.options, ...common })),
});
