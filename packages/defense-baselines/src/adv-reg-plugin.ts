import * as tf from '@tensorflow/tfjs-core';
import { checkNumberInRange, type TrainingPlugin } from '@mia/core';
import type { TwoBranchAttackModel } from './attack-model';

/** What the AdvReg attack model sees: the target's output vector and the label code. */
export interface AttackFeatures {
  /** `'logits'` (MLHospital, SEL) or `'posterior'` (softmax). @default 'logits' */
  readonly outputs?: 'logits' | 'posterior';
  /** `'plusMinusOne'` (−1 everywhere, +1 at y; MLHospital) or `'oneHot'` (SEL). @default 'plusMinusOne' */
  readonly labelCode?: 'plusMinusOne' | 'oneHot';
}

/**
 * The attack model's member logits for a batch of target logits and labels, `[n]`.
 * @internal
 */
export function attackLogits(attack: TwoBranchAttackModel, logits: tf.Tensor2D, labels: tf.Tensor1D, features: AttackFeatures): tf.Tensor1D {
  return tf.tidy(() => {
    const oneHot = tf.oneHot(tf.cast(labels, 'int32'), logits.shape[1]!) as tf.Tensor2D;
    const code = features.labelCode === 'oneHot' ? oneHot : (tf.sub(tf.mul(oneHot, 2), 1) as tf.Tensor2D);
    const outputs = features.outputs === 'posterior' ? tf.softmax(logits) : logits;
    return attack.forward(outputs, code);
  });
}

/** Options of {@link advRegPlugin}. */
export interface AdvRegPluginOptions extends AttackFeatures {
  /** Privacy weight α ≥ 0. @default 1 */
  readonly alpha?: number;
}

/**
 * The private objective of adversarial regularisation as a `TrainingPlugin`:
 * `baseLoss + α·(mean_i sigmoid(h(f(x_i), y_i)) − 0.5)` on the member batch (the α·0.5 constant is
 * kept as in the code). Only the classifier is trained through it: the attack model's variables are
 * not in the run, so its weights stay fixed; train it separately (see {@link trainAdvReg}).
 * @throws InvalidArgumentError on a negative α.
 * @see docs/protocol.md §4.7 (Nasr et al. 2018); grid `baselineGrids.advReg`.
 */
export function advRegPlugin(attack: TwoBranchAttackModel, options: AdvRegPluginOptions = {}): TrainingPlugin {
  const alpha = options.alpha ?? 1;
  checkNumberInRange('advRegPlugin', 'alpha', alpha, 0);
  return {
    name: `advReg(α=${alpha})`,
    loss(ctx, baseLoss) {
      const gain = tf.sub(tf.mean(tf.sigmoid(attackLogits(attack, ctx.logits, ctx.labels, options))), 0.5);
      return tf.add(baseLoss(), tf.mul(gain, alpha)) as tf.Scalar;
    },
  };
}
