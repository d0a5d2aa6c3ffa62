import { samOptionsSchema, samPlugin } from '@mia/sam';
import { defineDefense } from './definition';
import { trainWithPlugins } from './train-helpers';

/** Sharpness-aware minimisation (docs/protocol.md §4.4): first-order SAM with a global L2 ε, `@mia/sam`'s plugin and params. */
export const samDefense = defineDefense({
  name: 'sam',
  description: 'SAM, first-order, global L2 ε (docs/protocol.md §4.4)',
  schema: samOptionsSchema,
  train: (ctx) => trainWithPlugins(ctx, [samPlugin(ctx.options)]),
});
