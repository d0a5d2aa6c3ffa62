import { l1OptionsSchema, l1Plugin } from '@mia/defense-baselines';
import { defineDefense } from './definition';
import { trainWithPlugins } from './train-helpers';

/** L1 regularisation of the conv, dense and batch-norm weights (docs/protocol.md §4.12), with `@mia/defense-baselines`' L1 plugin and params. */
export const l1Defense = defineDefense({
  name: 'l1',
  description: 'L1 on conv/dense/BN weights (docs/protocol.md §4.12)',
  schema: l1OptionsSchema,
  train: (ctx) => trainWithPlugins(ctx, [l1Plugin(ctx.options)]),
});
