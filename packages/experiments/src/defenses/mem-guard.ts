import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, optionsSchema, predictLogits } from '@mia/core';
import { memGuard, memGuardAttackTrainingSchema, memGuardOptionsSchema, trainMemGuardAttackModel } from '@mia/defense-baselines';
import { defineDefense } from './definition';
import { trainWithPlugins } from './train-helpers';

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
