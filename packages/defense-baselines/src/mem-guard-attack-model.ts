import * as tf from '@tensorflow/tfjs-core';
import {
  ShapeMismatchError,
  adam,
  checkPositiveInteger,
  createAttackNetwork,
  deriveSeed,
  option,
  optionsSchema,
  seededRandom,
  type Classifier,
} from '@mia/core';

/**
 * The MemGuard defender's attack classifier on **sorted** (descending) softmax vectors:
 * `Dense(256)-ReLU-Dense(128)-ReLU-Dense(64)-ReLU-Dense(1)` (sigmoid), Glorot init.
 * @see docs/protocol.md §4.15 (SEL `purchase/MemGuard/memguard_run.py`).
 */
export class MemGuardAttackModel {
  readonly numClasses: number;
  private readonly network: Classifier;

  /**
   * @param numClasses - C. @param seed - initialisation seed.
   * @param hidden - hidden widths (smaller ones make fast tests). @default [256, 128, 64]
   */
  constructor(numClasses: number, seed = 0, hidden: readonly number[] = [256, 128, 64]) {
    checkPositiveInteger('MemGuardAttackModel', 'numClasses', numClasses);
    this.numClasses = numClasses;
    this.network = createAttackNetwork({ inputDim: numClasses, layers: [...hidden, 1].map((units) => ({ units })), init: 'glorot', seed });
  }

  /** Every variable, weights and biases in layer order. */
  get variables(): tf.Variable[] {
    return [...this.network.trainableVariables];
  }

  /** Member logits `[n]` of already sorted (descending) probability vectors `[n, C]`; differentiable. */
  logitOfSorted(sortedProbabilities: tf.Tensor2D): tf.Tensor1D {
    return tf.tidy(() => {
      // A one-unit network's logits are [0, z]: z is the member logit.
      const logits = this.network.forward(sortedProbabilities, { training: false }).logits;
      return tf.reshape(tf.slice(logits, [0, 1], [-1, 1]), [-1]) as tf.Tensor1D;
    });
  }

  /** Member probabilities `[n]` of raw logits `[n, C]` (softmax, sorted, then the network). */
  predict(logits: tf.Tensor2D): tf.Tensor1D {
    return tf.tidy(() => tf.sigmoid(this.logitOfSorted(tf.topk(tf.softmax(logits), logits.shape[1]!).values as tf.Tensor2D)));
  }

  dispose(): void {
    this.network.dispose();
  }
}

/** Options of {@link trainMemGuardAttackModel}. */
export interface MemGuardAttackTrainingOptions {
  /** @default 100 */
  readonly epochs?: number;
  /** @default 128 */
  readonly batchSize?: number;
  /** Adam learning rate. @default 1e-3 */
  readonly lr?: number;
  /** @default 0 */
  readonly seed?: number;
  /** Hidden widths of the attack model. @default [256, 128, 64] */
  readonly hidden?: readonly number[];
}

/** The schema of {@link MemGuardAttackTrainingOptions} (validation, defaults, JSON Schema; unknown keys are errors). */
export const memGuardAttackTrainingSchema = optionsSchema({
  epochs: option.integer({ min: 1, default: 100, description: "Epochs of the defender's attack model." }),
  batchSize: option.integer({ min: 1, default: 128, description: 'Batch size of the attack model.' }),
  lr: option.number({ min: 0, exclusiveMin: true, default: 1e-3, description: 'Adam learning rate of the attack model.' }),
  seed: option.number({ default: 0, description: "Seed of the attack model's initialisation and batches." }),
  hidden: option.list(option.integer({ min: 1 }), { minItems: 1, default: [256, 128, 64], description: 'Hidden widths of the attack model.' }),
});

/**
 * Trains the defender's {@link MemGuardAttackModel} with BCE (Adam) on the sorted softmax of the
 * target's logits for members (label 1) and the defender's own non-members (label 0).
 * @param memberLogits - `[n1, C]`. @param nonMemberLogits - `[n0, C]`.
 * @returns the trained model (the caller disposes it).
 * @throws ShapeMismatchError when the widths differ or a set is empty.
 * @see docs/protocol.md §4.15.
 */
export function trainMemGuardAttackModel(
  memberLogits: tf.Tensor2D,
  nonMemberLogits: tf.Tensor2D,
  options: MemGuardAttackTrainingOptions = {},
): MemGuardAttackModel {
  const c = memberLogits.shape[1]!;
  if (
    memberLogits.rank !== 2 ||
    nonMemberLogits.rank !== 2 ||
    nonMemberLogits.shape[1] !== c ||
    memberLogits.shape[0] === 0 ||
    nonMemberLogits.shape[0] === 0
  ) {
    throw new ShapeMismatchError(
      `trainMemGuardAttackModel: memberLogits and nonMemberLogits must be non-empty [n, C] with the same C, got [${memberLogits.shape.join(', ')}] and [${nonMemberLogits.shape.join(', ')}]`,
    );
  }
  const { epochs, batchSize, seed, hidden, lr } = memGuardAttackTrainingSchema.parse(options, 'trainMemGuardAttackModel');
  const model = new MemGuardAttackModel(c, deriveSeed(seed, 'init'), hidden);
  const optimizer = adam({ lr });
  const [x, y] = tf.tidy(() => {
    const both = tf.concat([memberLogits, nonMemberLogits]) as tf.Tensor2D;
    const sorted = tf.topk(tf.softmax(both), c).values;
    return [sorted, tf.concat([tf.ones([memberLogits.shape[0]!]), tf.zeros([nonMemberLogits.shape[0]!])])];
  });
  const n = x.shape[0]!;
  try {
    for (let epoch = 0; epoch < epochs; epoch++) {
      const order = seededRandom(deriveSeed(seed, 'shuffle', epoch)).permutation(n);
      for (let start = 0; start < n; start += batchSize) {
        tf.tidy(() => {
          const idx = tf.tensor1d(order.subarray(start, Math.min(start + batchSize, n)), 'int32');
          const xb = tf.gather(x, idx) as tf.Tensor2D;
          const yb = tf.gather(y, idx);
          const { grads } = tf.variableGrads(() => {
            const z = model.logitOfSorted(xb);
            return tf.mean(tf.add(tf.sub(tf.relu(z), tf.mul(z, yb)), tf.log1p(tf.exp(tf.neg(tf.abs(z)))))) as tf.Scalar;
          }, model.variables);
          optimizer.applyGradients(model.variables, grads, optimizer.learningRate);
        });
      }
    }
  } catch (error) {
    model.dispose();
    throw error;
  } finally {
    optimizer.dispose();
    x.dispose();
    y.dispose();
  }
  return model;
}
