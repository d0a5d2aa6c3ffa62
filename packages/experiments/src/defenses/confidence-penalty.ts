import { confidencePenaltyOptionsSchema, confidencePenaltyPlugin } from '@mia/defense-baselines';
import { defineDefense } from './definition';
import { trainWithPlugins } from './train-helpers';

/** The confidence penalty (docs/protocol.md §4.9): the run's training with `@mia/defense-baselines`' confidence-penalty plugin and params. */
export const confidencePenaltyDefense = defineDefense({
  name: 'confidence-penalty',
  description: 'confidence penalty (docs/protocol.md §4.9)',
  schema: confidencePenaltyOptionsSchema,
  train: (ctx) => trainWithPlugins(ctx, [confidencePenaltyPlugin(ctx.options)]),
});
