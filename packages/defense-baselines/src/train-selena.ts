import * as tf from '@tensorflow/tfjs-core';
import { train, type Classifier, type LabeledData, type TrainOptions, type TrainingPlugin } from '@mia/core';
import { softCrossEntropy } from './soft-cross-entropy';
import { splitAiPredict, trainSplitAi, type SplitAi, type SplitAiOptions } from './split-ai';

/**
 * A `TrainingPlugin` whose objective is the soft-label cross-entropy `−Σ_j q_j log softmax(z)_j`
 * against fixed targets, looked up by each batch's `indices`. Does not own `targets`.
 * @see docs/protocol.md §4.14 (SELENA self-distillation).
 */
export function softLabelPlugin(targets: tf.Tensor2D): TrainingPlugin {
  return {
    name: 'softLabels',
    loss: (ctx) => softCrossEntropy(ctx.logits, tf.gather(targets, tf.tensor1d(ctx.indices, 'int32')) as tf.Tensor2D),
  };
}

/** Options of {@link trainSelena}. */
export interface SelenaOptions extends Omit<SplitAiOptions, 'training'> {
  /** `train` options of each Split-AI sub-model (SEL: like the undefended model); optimizers come from `createOptimizer`. */
  readonly splitAiTraining: Omit<TrainOptions, 'optimizer'>;
  /** `train` options of the distilled model (SEL: Purchase 60 epochs, Texas 30). */
  readonly distillationTraining: TrainOptions;
  /** Return the Split-AI ensemble instead of disposing it. @default false */
  readonly keepSplitAi?: boolean;
}

/** What {@link trainSelena} returns; the caller disposes `model` (and `splitAi` when kept). */
export interface SelenaResult {
  readonly model: Classifier;
  readonly splitAi?: SplitAi;
}

/**
 * SELENA (Tang et al. 2022): Split-AI ({@link trainSplitAi}, K sub-models, each member excluded
 * from L of them), then self-distillation: a fresh model trained (core `train`) on the members with
 * soft-label CE against each member's Split-AI output ({@link splitAiPredict}, which uses only
 * sub-models that never saw the member).
 * @param createModel - builds a fresh classifier. @param members - the private training set (`tr ∪ te`).
 * @throws InvalidArgumentError on bad K/L.
 * @see docs/protocol.md §4.14, §2.5.
 */
export async function trainSelena(createModel: () => Classifier, members: LabeledData, options: SelenaOptions): Promise<SelenaResult> {
  const splitAi = await trainSplitAi(createModel, members, { ...options, training: options.splitAiTraining });
  let targets: tf.Tensor2D | undefined;
  let model: Classifier | undefined;
  try {
    targets = splitAiPredict(splitAi, members, { memberIndex: Int32Array.from({ length: members.size }, (_, i) => i) });
    model = createModel();
    await train(model, members, { ...options.distillationTraining, plugins: [softLabelPlugin(targets), ...(options.distillationTraining.plugins ?? [])] });
  } catch (error) {
    model?.dispose();
    splitAi.dispose();
    throw error;
  } finally {
    targets?.dispose();
  }
  if (options.keepSplitAi === true) return { model, splitAi };
  splitAi.dispose();
  return { model };
}
