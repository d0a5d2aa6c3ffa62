import { cclOptionsSchema, cclPlugin } from '@mia/defense-ccl';
import { defineDefense } from './definition';
import { trainWithPlugins } from './train-helpers';

/** The convex-concave loss (docs/protocol.md §4.2): the run's training with `@mia/defense-ccl`'s plugin and params. */
export const cclDefense = defineDefense({
  name: 'ccl',
  description: 'convex-concave loss (CCL, docs/protocol.md §4.2)',
  schema: cclOptionsSchema,
  train: (ctx) => trainWithPlugins(ctx, [cclPlugin(ctx.options)]),
});
