import { cosine, option, optionsSchema } from '@mia/core';
import { splitAiOptionsSchema, trainSelena } from '@mia/defense-baselines';
import { defineDefense } from './definition';
import { optimizerFor } from './train-helpers';
import { refuseTrainingAugmentation } from './training-augmentation';

const selenaSchema = optionsSchema({
  numModels: splitAiOptionsSchema.fields.numModels,
  numExcluded: splitAiOptionsSchema.fields.numExcluded,
  assignmentSeed: splitAiOptionsSchema.fields.seed,
  distillationEpochs: option.integer({ min: 1, description: "Epochs of the distilled model (default: the run's epochs)." }),
});

/**
 * SELENA (docs/protocol.md §4.14): Split-AI with `numModels` (K) sub-models, each member excluded from
 * `numExcluded` (L) of them, trained like the undefended model; then a fresh model distilled on the
 * members for `distillationEpochs` (default: the run's epochs).
 */
export const selenaDefense = defineDefense({
  name: 'selena',
  description: 'SELENA: Split-AI ensemble then self-distillation (docs/protocol.md §4.14)',
  schema: selenaSchema,
  check: (o, run) => [
    ...(o.numExcluded >= o.numModels ? [{ path: 'numExcluded', expected: `an integer less than numModels (${o.numModels})`, got: String(o.numExcluded) }] : []),
    ...refuseTrainingAugmentation(run),
  ],
  async train(ctx) {
    const { numModels, numExcluded, assignmentSeed, distillationEpochs = ctx.training.epochs } = ctx.options;
    const { optimizer, schedule } = optimizerFor(ctx.training);
    const base = { batchSize: ctx.training.batchSize, schedule, label: ctx.label, signal: ctx.signal };
    try {
      const result = await trainSelena(ctx.createModel, ctx.members, {
        numModels,
        numExcluded,
        seed: assignmentSeed,
        createOptimizer: () => optimizerFor(ctx.training).optimizer,
        splitAiTraining: { ...base, epochs: ctx.training.epochs, seed: ctx.seed, label: `${ctx.label} (Split-AI)` },
        distillationTraining: {
          ...base,
          epochs: distillationEpochs,
          optimizer,
          seed: ctx.seed,
          schedule: ctx.training.schedule.type === 'cosine' ? cosine(distillationEpochs) : schedule,
          label: `${ctx.label} (distillation)`,
        },
      });
      return result.model;
    } finally {
      optimizer.dispose();
    }
  },
});
