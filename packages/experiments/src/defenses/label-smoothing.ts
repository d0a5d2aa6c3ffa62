import { labelSmoothingOptionsSchema, labelSmoothingPlugin } from '@mia/defense-baselines';
import { defineDefense } from './definition';
import { trainWithPlugins } from './train-helpers';

/** Label smoothing (docs/protocol.md §4.8): the run's training with `@mia/defense-baselines`' label-smoothing plugin and params. */
export const labelSmoothingDefense = defineDefense({
  name: 'label-smoothing',
  description: 'label smoothing (docs/protocol.md §4.8)',
  schema: labelSmoothingOptionsSchema,
  train: (ctx) => trainWithPlugins(ctx, [labelSmoothingPlugin(ctx.options)]),
});
