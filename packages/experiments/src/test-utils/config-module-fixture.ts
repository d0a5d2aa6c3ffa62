// Test fixture: a module listed in a config's `modules`; the defense it registers has no `module`
// of its own, so workers load it from the config's list.
import { optionsSchema } from '@mia/core';
import { defineDefense } from '../defenses/definition';
import { registerDefense } from '../defenses/registry';
import { trainWithPlugins } from '../defenses/train-helpers';

registerDefense(
  defineDefense({ name: 'test-config-module', description: 'test fixture', schema: optionsSchema({}), train: (ctx) => trainWithPlugins(ctx, []) }),
);
