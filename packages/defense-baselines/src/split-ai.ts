import * as tf from '@tensorflow/tfjs-core';
import {
  InvalidArgumentError,
  check,
  checkPositiveInteger,
  option,
  optionsSchema,
  deriveSeed,
  predictLogits,
  seededRandom,
  subsetData,
  train,
  type Classifier,
  type LabeledData,
  type Optimizer,
  type TrainOptions,
} from '@mia/core';

/**
 * For each of `n` members, `numExcluded` distinct sub-models (of `numModels`) that must **not**
 * train on it, drawn uniformly with the seeded PRNG. Row-major `[n, numExcluded]`.
 * @throws InvalidArgumentError unless 1 ≤ numExcluded < numModels.
 * @see docs/protocol.md §4.14 (SEL: K = 25, L = 10, seed 1000).
 */
export function splitAiAssignment(n: number, numModels: number, numExcluded: number, seed = 1000): Int32Array {
  checkPositiveInteger('splitAiAssignment', 'n', n);
  checkPositiveInteger('splitAiAssignment', 'numModels', numModels);
  checkPositiveInteger('splitAiAssignment', 'numExcluded', numExcluded);
  check(numExcluded < numModels, 'splitAiAssignment', 'numExcluded', `less than numModels (${numModels})`, numExcluded);
  const random = seededRandom(seed);
  const out = new Int32Array(n * numExcluded);
  for (let i = 0; i < n; i++) out.set(random.sample(numModels, numExcluded), i * numExcluded);
  return out;
}

/** A trained Split-AI ensemble. `dispose()` frees every sub-model. */
export interface SplitAi {
  readonly models: readonly Classifier[];
  /** `[n, numExcluded]` row-major: the sub-models assigned to (never trained on) each member. */
  readonly assignment: Int32Array;
  readonly numExcluded: number;
  /** The member indices each sub-model trained on. */
  readonly trainingIndices: readonly Int32Array[];
  dispose(): void;
}

/** The schema of the scalar {@link SplitAiOptions} (K, L and the assignment seed; unknown keys are errors). @see docs/protocol.md §4.14, §2.5 */
export const splitAiOptionsSchema = optionsSchema({
  numModels: option.integer({ min: 2, default: 25, description: 'K, the number of sub-models.' }),
  numExcluded: option.integer({ min: 1, default: 10, description: 'L, the sub-models each member is excluded from (less than K).' }),
  seed: option.number({ default: 1000, description: 'Seed of the member-to-sub-model assignment.' }),
});

/** Options of {@link trainSplitAi}. */
export interface SplitAiOptions {
  /** K. @default 25 */
  readonly numModels?: number;
  /** L. @default 10 */
  readonly numExcluded?: number;
  /** `train` options of every sub-model (each gets the seed `deriveSeed(training.seed, 'split-ai', k)`). */
  readonly training: Omit<TrainOptions, 'optimizer'>;
  /** Makes a fresh optimizer for each sub-model (disposed after its training), e.g. `() => adam({lr: 1e-3})`. */
  readonly createOptimizer: () => Optimizer;
  /** Seed of the assignment. @default 1000 */
  readonly seed?: number;
}

/**
 * Trains the K Split-AI sub-models of SELENA: sub-model k trains (core `train`) on every member not
 * assigned to k by {@link splitAiAssignment}.
 * @param createModel - builds a fresh classifier. @param members - the private training set.
 * @throws InvalidArgumentError on bad K/L or when a sub-model would get no data.
 * @see docs/protocol.md §4.14, §2.5 (Tang et al. 2022).
 */
export async function trainSplitAi(createModel: () => Classifier, members: LabeledData, options: SplitAiOptions): Promise<SplitAi> {
  const { numModels, numExcluded, seed } = splitAiOptionsSchema.parse(options, 'trainSplitAi', { allowUnknown: true });
  const assignment = splitAiAssignment(members.size, numModels, numExcluded, seed);
  const excluded = Array.from({ length: numModels }, () => new Set<number>());
  for (let i = 0; i < members.size; i++) for (let l = 0; l < numExcluded; l++) excluded[assignment[i * numExcluded + l]!]!.add(i);
  const trainingIndices = excluded.map((set) => Int32Array.from({ length: members.size }, (_, i) => i).filter((i) => !set.has(i)));
  const models: Classifier[] = [];
  const dispose = () => models.forEach((m) => m.dispose());
  try {
    for (let k = 0; k < numModels; k++) {
      if (trainingIndices[k]!.length === 0)
        throw new InvalidArgumentError(`trainSplitAi: sub-model ${k} has no training data; use more members or a smaller numExcluded`);
      const model = createModel();
      models.push(model);
      const optimizer = options.createOptimizer();
      try {
        await train(model, subsetData(members, trainingIndices[k]!), {
          ...options.training,
          optimizer,
          seed: deriveSeed(options.training.seed ?? 0, 'split-ai', k),
        });
      } finally {
        optimizer.dispose();
      }
    }
  } catch (error) {
    dispose();
    throw error;
  }
  return { models, assignment, numExcluded, trainingIndices, dispose };
}

/** Options of {@link splitAiPredict}. */
export interface SplitAiPredictOptions {
  /**
   * For each row of `data`, its index in the Split-AI training set, or −1 for a non-member.
   * @default all −1 (every row treated as a non-member)
   */
  readonly memberIndex?: ArrayLike<number>;
  /** Seed of the random member whose sub-models answer a non-member. @default 0 */
  readonly seed?: number;
  readonly batchSize?: number;
}

/**
 * Split-AI inference: a member is answered by the mean softmax of its L assigned sub-models (none
 * of which saw it); a non-member by the L sub-models of a random training member (SEL mode 2).
 * @returns `[n, C]` probabilities; the caller disposes them.
 * @throws InvalidArgumentError on a member index out of range or a length mismatch.
 * @see docs/protocol.md §4.14, §6 item 30.
 */
export function splitAiPredict(splitAi: SplitAi, data: LabeledData, options: SplitAiPredictOptions = {}): tf.Tensor2D {
  const n = data.size;
  const numMembers = splitAi.assignment.length / splitAi.numExcluded;
  const memberIndex = options.memberIndex ?? new Int32Array(n).fill(-1);
  check(memberIndex.length === n, 'splitAiPredict', 'memberIndex', `one entry per example (${n})`, memberIndex.length);
  const random = seededRandom(options.seed ?? 0);
  const weights = new Float32Array(splitAi.models.length * n);
  for (let i = 0; i < n; i++) {
    const m = memberIndex[i]!;
    check(Number.isInteger(m) && m >= -1 && m < numMembers, 'splitAiPredict', `memberIndex[${i}]`, `an integer in [-1, ${numMembers - 1}]`, m);
    const row = m >= 0 ? m : random.int(numMembers);
    for (let l = 0; l < splitAi.numExcluded; l++) weights[splitAi.assignment[row * splitAi.numExcluded + l]! * n + i] = 1 / splitAi.numExcluded;
  }
  return tf.tidy(() => {
    let sum: tf.Tensor = tf.zeros([n, data.numClasses]);
    splitAi.models.forEach((model, k) => {
      const slice = weights.subarray(k * n, (k + 1) * n);
      if (slice.every((v) => v === 0)) return;
      const w = tf.tensor2d(slice, [n, 1]);
      const logits = predictLogits(model, data, { batchSize: options.batchSize });
      sum = tf.add(sum, tf.mul(tf.softmax(logits), w));
    });
    return sum as tf.Tensor2D;
  });
}
