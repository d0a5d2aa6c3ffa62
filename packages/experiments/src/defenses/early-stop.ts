import { option, optionsSchema } from '@mia/core';
import { defineDefense } from './definition';
import { trainWithPlugins } from './train-helpers';

/**
 * Early stopping (docs/protocol.md §4.11): the checkpoint after `params.epochs` epochs of the full
 * run, whose learning-rate schedule it keeps; its check refuses more epochs than the run's.
 */
export const earlyStopDefense = defineDefense({
  name: 'early-stop',
  description: 'early stopping: the checkpoint after params.epochs epochs of the full run, whose schedule it keeps (docs/protocol.md §4.11)',
  schema: optionsSchema({
    epochs: option.integer({ min: 1, required: true, description: "Epochs trained, at most the run's; the schedule stays the full run's." }),
  }),
  check: (o, run) =>
    o.epochs > run.training.epochs
      ? [{ path: 'epochs', expected: `an integer in [1, ${run.training.epochs}] (the run's training.epochs)`, got: String(o.epochs) }]
      : [],
  train: (ctx) => trainWithPlugins(ctx, [], ctx.options.epochs),
});
