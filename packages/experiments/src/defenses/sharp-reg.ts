import { describeValue } from '@mia/core';
import { sharpRegOptionsSchema, sharpRegPlugin, type SharpRegPluginOptions } from '@mia/sam';
import { defineDefense } from './definition';
import { trainWithPlugins } from './train-helpers';

/**
 * SharpReg (docs/protocol.md §4.4): the run's training with `@mia/sam`'s SharpReg plugin; its check
 * refuses params the plugin refuses (either `lambda` and `xi` with 1 + lambda − xi > 0, or `beta`).
 */
export const sharpRegDefense = defineDefense({
  name: 'sharpreg',
  description: 'SharpReg (λ, ρ, ξ) (docs/protocol.md §4.4)',
  schema: sharpRegOptionsSchema,
  check(o) {
    try {
      sharpRegPlugin(o as SharpRegPluginOptions);
      return [];
    } catch (error) {
      return [{ path: '', expected: 'either lambda and xi (with 1 + lambda − xi > 0), or beta', got: `${describeValue(o)} (${(error as Error).message})` }];
    }
  },
  train: (ctx) => trainWithPlugins(ctx, [sharpRegPlugin(ctx.options as SharpRegPluginOptions)]),
});
