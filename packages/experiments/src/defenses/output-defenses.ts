import * as tf from '@tensorflow/tfjs-core';
import { cosine, InvalidArgumentError, option, optionsSchema, predictLogits } from '@mia/core';
import {
  memGuard,
  memGuardAttackTrainingSchema,
  memGuardOptionsSchema,
  splitAiOptionsSchema,
  trainMemGuardAttackModel,
  trainSelena,
} from '@mia/defense-baselines';
import { defineDefense } from './definition';
import { optimizerFor, trainWithPlugins } from './train-helpers';
import { refuseTrainingAugmentation } from './training-augmentation';

const memGuardSchema = optionsSchema({
  ...memGuardOptionsSchema.fields,
  attackEpochs: memGuardAttackTrainingSchema.fields.epochs,
  hidden: memGuardAttackTrainingSchema.fields.hidden,
});

/**
 * MemGuard (docs/protocol.md §4.15): the undefended model, whose released logits are perturbed. The
 * defender's attack classifier is trained on the model's own members (label 1) and the partition's
 * inference/reference set (label 0); params: `attackEpochs`, `hidden` and the `memGuard` options.
 */
export const memGuardDefense = defineDefense({
  name: 'memguard',
  description: "MemGuard: undefended training, then output perturbation against the defender's own attack model (docs/protocol.md §4.15)",
  needsInference: true,
  schema: memGuardSchema,
  train: (ctx) => trainWithPlugins(ctx, []),
  async perturbLogits(ctx, logits) {
    if (ctx.inference === undefined)
      throw new InvalidArgumentError('defense memguard needs a partition with an inference/reference set (PAST6 or CCL5), got none');
    const { attackEpochs, hidden, ...guard } = ctx.options;
    const c = ctx.model.numClasses;
    const memberLogits = tf.tensor2d(logits.members, [logits.members.length / c, c]);
    const referenceLogits = predictLogits(ctx.model, ctx.inference) as tf.Tensor2D;
    const attack = trainMemGuardAttackModel(memberLogits, referenceLogits, { epochs: attackEpochs, seed: ctx.seed, hidden });
    tf.dispose([memberLogits, referenceLogits]);
    const perturb = (values: Float32Array): Float32Array => {
      const input = tf.tensor2d(values, [values.length / c, c]);
      const result = memGuard(input, attack, guard);
      const out = Float32Array.from(result.logits.dataSync() as Float32Array);
      tf.dispose([input, result.logits, result.probabilities]);
      return out;
    };
    try {
      const members = perturb(logits.members);
      // memGuard is synchronous and takes seconds per thousand rows: let timers and I/O run in between.
      await new Promise((resolve) => setImmediate(resolve));
      return { members, nonMembers: perturb(logits.nonMembers) };
    } finally {
      attack.dispose();
    }
  },
});

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
