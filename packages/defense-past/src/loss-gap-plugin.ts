import * as tf from '@tensorflow/tfjs-core';
import {
  check,
  checkNumberInRange,
  crossEntropy,
  deriveSeed,
  InvalidArgumentError,
  ShapeMismatchError,
  type LabeledData,
  type TrainingPlugin,
} from '@mia/core';
import { nonMemberBatches } from './non-member-batches';

/** Options of {@link lossGapPlugin}. */
export interface LossGapPluginOptions {
  /** The inference (non-member) set. */
  readonly nonMembers: LabeledData;
  /** λ, the weight of `|L_m − L_n|` (≥ 0). */
  readonly lambda: number;
  /** Non-member batch size. @default 128 */
  readonly batchSize?: number;
  /** Seed of the non-member batch order. @default 0 */
  readonly seed?: number;
}

/**
 * The "LossGap" ablation of PAST App. B (Fig. 8): the loss gap itself as a regulariser,
 * `L_m + λ·|L_m − L_n|`, with `L_m` the run's objective on the member batch and `L_n` the mean
 * train-mode cross-entropy on the next non-member batch (cycled like {@link pastPlugin}).
 * Gradients flow through both terms, so the non-member set is trained on (the paper's
 * "LossGap (infer)" leak). The paper does not give the exact form; this is docs/protocol.md's choice.
 *
 * @param options - {@link LossGapPluginOptions}.
 * @returns A plugin with a `loss` hook (composes with other plugins).
 * @throws InvalidArgumentError on a negative λ or an empty non-member set.
 * @see docs/protocol.md §4.1 ("LossGap"); PAST App. B.
 */
export function lossGapPlugin(options: LossGapPluginOptions): TrainingPlugin {
  const fn = 'lossGapPlugin';
  checkNumberInRange(fn, 'lambda', options.lambda, 0);
  const { nonMembers, lambda } = options;
  if (nonMembers === undefined || nonMembers.size === 0) {
    throw new InvalidArgumentError(`${fn}: nonMembers must be a non-empty LabeledData, got ${nonMembers === undefined ? 'undefined' : 'an empty dataset'}`);
  }
  const seed = options.seed ?? 0;
  check(Number.isFinite(seed), fn, 'seed', 'a finite number', seed);
  const batches = nonMemberBatches(fn, nonMembers, options.batchSize ?? 128, seed);
  return {
    name: 'loss-gap',
    onTrainStart({ model }) {
      if (nonMembers.numClasses !== model.numClasses || nonMembers.inputShape.join(',') !== model.inputShape.join(',')) {
        throw new ShapeMismatchError(
          `${fn}: nonMembers must match the classifier (${model.numClasses} classes, input [${model.inputShape.join(', ')}]), got ${nonMembers.numClasses} classes, input [${nonMembers.inputShape.join(', ')}]`,
        );
      }
    },
    loss(ctx, baseLoss) {
      const memberLoss = baseLoss();
      const indices = batches.indicesAt(ctx.step);
      const x = nonMembers.gather(indices);
      const y = tf.tensor1d(
        Int32Array.from(indices, (i) => nonMembers.y[i]!),
        'int32',
      );
      const { logits } = ctx.model.forward(x, { training: true, seed: deriveSeed(ctx.seed, 'lossGapNonMember') });
      const nonMemberLoss = crossEntropy(logits, y);
      return tf.add(memberLoss, tf.mul(tf.abs(tf.sub(memberLoss, nonMemberLoss)), lambda)) as tf.Scalar;
    },
  };
}
