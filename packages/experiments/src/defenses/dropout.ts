import { option, optionsSchema } from '@mia/core';
import { defineDefense } from './definition';
import { trainWithPlugins } from './train-helpers';

/** Dropout (docs/protocol.md §4.10): the model gets a dropout layer of rate `params.p` before its last layer, trained as usual. */
export const dropoutDefense = defineDefense({
  name: 'dropout',
  description: 'dropout before the last layer, rate params.p (docs/protocol.md §4.10)',
  schema: optionsSchema({ p: option.number({ min: 0, max: 1, exclusiveMax: true, required: true, description: 'Dropout rate before the last layer.' }) }),
  modelOptions: (o) => ({ dropout: o.p }),
  train: (ctx) => trainWithPlugins(ctx, []),
});
