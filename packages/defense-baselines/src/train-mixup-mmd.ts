import * as tf from '@tensorflow/tfjs-core';
import {
  InvalidDatasetError,
  cosine,
  deriveSeed,
  evaluate,
  seededRandom,
  sgd,
  subsetData,
  train,
  type Classifier,
  type LabeledData,
  type LrSchedule,
  type Optimizer,
  type TrainingPlugin,
} from '@mia/core';
import { mixupMmdOptionsSchema } from './mixup-mmd-options';
import { mixupLoss, mmdSquaredBiased } from './mmd-loss';
import { sampleSymmetricBeta } from './sample-beta';
import { stopGradient } from './stop-gradient';

/** Options of {@link trainMixupMmd}. */
export interface MixupMmdOptions {
  readonly epochs: number;
  /** @default 128 */
  readonly batchSize?: number;
  /** @default `sgd({lr: 0.01, momentum: 0.9, weightDecay: 5e-4})`, disposed at the end when created here */
  readonly optimizer?: Optimizer;
  /** Per-epoch LR, stepped every epoch, also when the MMD pass is skipped (A35). @default cosine(epochs) */
  readonly schedule?: LrSchedule;
  /** λ_mmd. @default 3 (MLHospital code) */
  readonly lambdaMmd?: number;
  /** Mixup Beta(α, α) parameter. @default 1 */
  readonly mixupAlpha?: number;
  /** RBF bandwidth σ. @default 1 */
  readonly sigma?: number;
  /** Skip the MMD pass when |train acc − validation acc| is below this (fraction). @default 0.03 */
  readonly gapThreshold?: number;
  /** @default 0 */
  readonly seed?: number;
}

/** One epoch of {@link trainMixupMmd}. */
export interface MixupMmdEpoch {
  /** 0-based. */
  readonly epoch: number;
  readonly learningRate: number;
  /** Eval-mode accuracies measured after the mixup pass. */
  readonly trainAccuracy: number;
  readonly validationAccuracy: number;
  /** Whether the MMD pass ran. */
  readonly mmdPass: boolean;
}

/** The mixup pass: `augment` mixes the batch and remembers (λ, perm); the plugin's loss reads them. */
function mixupPass(alpha: number) {
  let lambda = 1;
  let perm: Int32Array = new Int32Array(0);
  const augment = (x: tf.Tensor, random: ReturnType<typeof seededRandom>) => {
    lambda = sampleSymmetricBeta(alpha, random);
    perm = random.permutation(x.shape[0]!);
    return tf.tidy(() => tf.add(tf.mul(x, lambda), tf.mul(tf.gather(x, tf.tensor1d(perm, 'int32')), 1 - lambda)));
  };
  const plugin: TrainingPlugin = {
    name: 'mixup',
    loss: (ctx) => mixupLoss(ctx.logits, ctx.labels, tf.gather(ctx.labels, tf.tensor1d(perm, 'int32')), lambda),
  };
  return { augment, plugin };
}

/** The MMD pass objective: λ·MMD²(softmax(f(x)), detached softmax(f(x_val))) with class-matched x_val. */
function mmdPlugin(validation: LabeledData, byClass: Int32Array[], lambdaMmd: number, sigma: number): TrainingPlugin {
  return {
    name: 'mmd',
    loss(ctx) {
      const random = seededRandom(ctx.seed).fork('mmd');
      const idx = Int32Array.from(ctx.labelValues, (c) => {
        const pool = byClass[c]!.length > 0 ? byClass[c]! : Int32Array.from({ length: validation.size }, (_, i) => i);
        return pool[random.int(pool.length)]!;
      });
      const q = stopGradient(tf.softmax(ctx.model.forward(validation.gather(idx), { training: true, seed: ctx.seed }).logits));
      return tf.mul(mmdSquaredBiased(tf.softmax(ctx.logits), q, sigma), lambdaMmd) as tf.Scalar;
    },
  };
}

/**
 * Trains `classifier` with Mixup + MMD (Li et al. 2021, MLHospital `MixupMMD.py`). Each epoch:
 * 1. a mixup pass over `members` (one λ ~ Beta(α, α) per batch) — core `train`, one epoch;
 * 2. eval-mode train and validation accuracy; if their gap is below `gapThreshold` or λ_mmd < 1e-5,
 *    no MMD pass this epoch;
 * 3. an MMD pass over the members sorted by class (no shuffling): per batch, a validation batch with
 *    the same label multiset (sampled with replacement; from the whole set for a class it lacks) —
 *    core `train`, one epoch. Skipped in the last epoch (the code does not step there).
 * The LR schedule is stepped every epoch, also when the MMD pass is skipped (A35: the code's skip is
 * a bug). Both passes share the optimizer, so momentum carries over. The MMD pass (both forward passes)
 * runs in training mode; the reference code runs it in eval mode (its accuracy check leaves the model
 * there), which differs only for models with batch norm or dropout.
 *
 * @param members - the training set. @param validation - the inference ("validation") set the MMD aligns to.
 * @returns one {@link MixupMmdEpoch} per epoch.
 * @throws InvalidArgumentError on bad options; InvalidDatasetError when the sets disagree in classes.
 * @see docs/protocol.md §4.6, §6 item 45, A35; grid `baselineGrids.mixupMmd`.
 */
export async function trainMixupMmd(classifier: Classifier, members: LabeledData, validation: LabeledData, options: MixupMmdOptions): Promise<MixupMmdEpoch[]> {
  const fn = 'trainMixupMmd';
  const { epochs, batchSize, lambdaMmd, mixupAlpha: alpha, gapThreshold, seed, sigma } = mixupMmdOptionsSchema.parse(options, fn, { allowUnknown: true });
  if (validation.numClasses !== members.numClasses || validation.size === 0) {
    throw new InvalidDatasetError(
      `${fn}: validation must be non-empty with ${members.numClasses} classes, got ${validation.size} examples with ${validation.numClasses} classes`,
    );
  }
  const optimizer = options.optimizer ?? sgd({ lr: 0.01, momentum: 0.9, weightDecay: 5e-4 });
  const schedule = options.schedule ?? cosine(epochs);
  const sortedIndices = Int32Array.from({ length: members.size }, (_, i) => i).sort((a, b) => members.y[a]! - members.y[b]! || a - b);
  const sorted = subsetData(members, sortedIndices);
  const byClass = Array.from({ length: members.numClasses }, (_, c) => Int32Array.from(Array.from(validation.y.keys()).filter((i) => validation.y[i] === c)));
  const mmd = mmdPlugin(validation, byClass, lambdaMmd, sigma);
  const history: MixupMmdEpoch[] = [];
  try {
    for (let epoch = 0; epoch < epochs; epoch++) {
      const learningRate = schedule(epoch, optimizer.learningRate);
      const common = { epochs: 1, batchSize, optimizer, schedule: () => learningRate, progressBar: false } as const;
      const mixup = mixupPass(alpha);
      await train(classifier, members, { ...common, seed: deriveSeed(seed, 'mixup', epoch), augment: mixup.augment, plugins: [mixup.plugin] });
      const trainAccuracy = evaluate(classifier, members).accuracy;
      const validationAccuracy = evaluate(classifier, validation).accuracy;
      const mmdPass = Math.abs(trainAccuracy - validationAccuracy) >= gapThreshold && lambdaMmd >= 1e-5 && epoch + 1 < epochs;
      if (mmdPass) await train(classifier, sorted, { ...common, seed: deriveSeed(seed, 'mmd', epoch), shuffle: false, plugins: [mmd] });
      history.push({ epoch, learningRate, trainAccuracy, validationAccuracy, mmdPass });
    }
  } finally {
    if (options.optimizer === undefined) optimizer.dispose();
  }
  return history;
}
