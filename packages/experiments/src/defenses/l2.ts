import { option, optionsSchema } from '@mia/core';
import { defineDefense } from './definition';
import { trainWithPlugins } from './train-helpers';

/** L2 regularisation (docs/protocol.md §4.12): the run's training with its SGD weight decay replaced by `params.weightDecay`. */
export const l2Defense = defineDefense({
  name: 'l2',
  description: 'L2: the SGD weight decay set to params.weightDecay (docs/protocol.md §4.12)',
  schema: optionsSchema({ weightDecay: option.number({ min: 0, required: true, description: "Replaces the run's weight decay." }) }),
  train: (ctx) => trainWithPlugins({ ...ctx, training: { ...ctx.training, weightDecay: ctx.options.weightDecay } }, []),
});
