import { relaxLossOptionsSchema, relaxLossPlugin } from '@mia/defense-baselines';
import { defineDefense } from './definition';
import { trainWithPlugins } from './train-helpers';

/** RelaxLoss (docs/protocol.md §4.5): the run's training with `@mia/defense-baselines`' RelaxLoss plugin and params. */
export const relaxLossDefense = defineDefense({
  name: 'relaxloss',
  description: 'RelaxLoss (docs/protocol.md §4.5)',
  schema: relaxLossOptionsSchema,
  train: (ctx) => trainWithPlugins(ctx, [relaxLossPlugin(ctx.options)]),
});
