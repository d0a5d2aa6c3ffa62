// Test fixture: a user defense in a module of its own, as a library user would write it. Imported by
// the test (main thread) and, through its `module` / the config's `modules`, by worker threads.
import * as tf from '@tensorflow/tfjs-core';
import { option, optionsSchema } from '@mia/core';
import { defineDefense } from '../defenses/definition';
import { registerDefense } from '../defenses/registry';
import { trainWithPlugins } from '../defenses/train-helpers';

/** Cross-entropy scaled by `weight` (a different model from `none` unless weight = 1). */
export const scaledCrossEntropy = defineDefense({
  name: 'test-scaled-ce',
  description: 'test fixture: cross-entropy × weight',
  module: import.meta.url,
  schema: optionsSchema({ weight: option.number({ min: 0, exclusiveMin: true, default: 1 }) }),
  train: (ctx) => trainWithPlugins(ctx, [{ name: 'scaled-ce', loss: (_l, baseLoss) => tf.mul(baseLoss(), ctx.options.weight) as tf.Scalar }]),
});

registerDefense(scaledCrossEntropy);
