import * as tf from '@tensorflow/tfjs-core';
import type { Classifier, LabeledData, Optimizer } from '@mia/core';
import { attackLogits, type AttackFeatures } from './adv-reg-plugin';
import type { TwoBranchAttackModel } from './attack-model';

/**
 * One attack-model update on a member batch (label 1) and a reference batch (label 0). The target
 * runs in eval mode without gradient; the attack minimises BCE (MLHospital) or the MSE between its
 * sigmoid and the 0/1 label (SEL), averaged over both batches.
 * @returns the batch loss.
 * @internal
 */
export function attackStep(
  attack: TwoBranchAttackModel,
  optimizer: Optimizer,
  learningRate: number,
  target: Classifier,
  batches: ReadonlyArray<{ data: LabeledData; indices: Int32Array; member: boolean }>,
  features: AttackFeatures,
  lossKind: 'bce' | 'mse',
): number {
  const loss = tf.tidy(() => {
    const parts = batches.map(({ data, indices, member }) => {
      const logits = target.forward(data.gather(indices), { training: false }).logits;
      const labels = tf.tensor1d(
        Int32Array.from(indices, (i) => data.y[i]!),
        'int32',
      );
      return { logits, labels, truth: tf.fill([indices.length], member ? 1 : 0) };
    });
    const logits = tf.concat(parts.map((p) => p.logits)) as tf.Tensor2D;
    const labels = tf.concat(parts.map((p) => p.labels)) as tf.Tensor1D;
    const truth = tf.concat(parts.map((p) => p.truth));
    const { value, grads } = tf.variableGrads(() => {
      const z = attackLogits(attack, logits, labels, features);
      if (lossKind === 'mse') return tf.mean(tf.square(tf.sub(tf.sigmoid(z), truth))) as tf.Scalar;
      // BCE with logits, stable: max(z, 0) − z·t + log(1 + exp(−|z|)).
      return tf.mean(tf.add(tf.sub(tf.relu(z), tf.mul(z, truth)), tf.log1p(tf.exp(tf.neg(tf.abs(z)))))) as tf.Scalar;
    }, attack.variables);
    optimizer.applyGradients(attack.variables, grads, learningRate);
    return value;
  });
  const value = loss.dataSync()[0]!;
  loss.dispose();
  return value;
}
