import { optionsSchema } from '@mia/core';
import { defineDefense } from './definition';
import { trainWithPlugins } from './train-helpers';

/** No defense: the run's training with plain cross-entropy, the baseline every defense is compared with. */
export const noneDefense = defineDefense({
  name: 'none',
  description: 'undefended (cross-entropy)',
  schema: optionsSchema({}),
  train: (ctx) => trainWithPlugins(ctx, []),
});
