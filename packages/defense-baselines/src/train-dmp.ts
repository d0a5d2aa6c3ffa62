import * as tf from '@tensorflow/tfjs-core';
import { ShapeMismatchError, predictLogits, train, type Classifier, type LabeledData, type TrainOptions, type TrainingPlugin } from '@mia/core';
import { distillationKlLoss, type DistillationKlOptions } from './distillation-loss';

/** Options of {@link trainDmp}. */
export interface DmpOptions extends DistillationKlOptions {
  /** `train` options of the unprotected model on the private set. */
  readonly unprotectedTraining: TrainOptions;
  /** `train` options of the protected model on the reference set (its plugins come after the distillation objective). */
  readonly protectedTraining: TrainOptions;
  /** An already trained unprotected model; skips step 1 (the caller keeps ownership). */
  readonly unprotected?: Classifier;
}

/** What {@link trainDmp} returns; the caller disposes both models. */
export interface DmpResult {
  /** The protected model θ_p, trained only on the reference set. */
  readonly model: Classifier;
  /** The unprotected teacher θ_up (the one passed in, or the one trained here). */
  readonly unprotected: Classifier;
}

/**
 * A `TrainingPlugin` whose objective is {@link distillationKlLoss} against fixed teacher logits,
 * looked up by each batch's `indices` (row i of `teacherLogits` belongs to example i of the data).
 * Earlier plugins' objectives are ignored. The plugin does not own `teacherLogits`.
 * @see docs/protocol.md §4.13.
 */
export function distillationPlugin(teacherLogits: tf.Tensor2D, options: DistillationKlOptions = {}): TrainingPlugin {
  return {
    name: `distillation(τ=${options.temperature ?? 1})`,
    loss: (ctx) => distillationKlLoss(ctx.logits, tf.gather(teacherLogits, tf.tensor1d(ctx.indices, 'int32')) as tf.Tensor2D, options),
  };
}

/**
 * DMP, Distillation for Membership Privacy (Shejwalkar & Houmansadr 2021), as in CRLr:
 * 1. train an unprotected model θ_up on `privateData` (core `train`, CE);
 * 2. record its eval-mode logits `u` on the disjoint `reference` set;
 * 3. train a fresh model θ_p = `createModel()` **only on `reference`** with
 *    `KL(softmax(u/τ) ‖ softmax(f(x)/τ))` (core `train` with {@link distillationPlugin}).
 * The DMP paper's low-entropy selection of reference samples is not applied (CRLr does not).
 *
 * @param createModel - builds a fresh, untrained classifier (e.g. an architecture of `@mia/models`).
 * @returns the protected and unprotected models.
 * @throws ShapeMismatchError when the two sets disagree in classes or input shape.
 * @see docs/protocol.md §4.13, §6 item 39; grid `baselineGrids.dmpTemperature`.
 */
export async function trainDmp(createModel: () => Classifier, privateData: LabeledData, reference: LabeledData, options: DmpOptions): Promise<DmpResult> {
  if (privateData.numClasses !== reference.numClasses || privateData.inputShape.join() !== reference.inputShape.join()) {
    throw new ShapeMismatchError(
      `trainDmp: reference must match privateData (${privateData.numClasses} classes, input [${privateData.inputShape.join(', ')}]), got ${reference.numClasses} classes, input [${reference.inputShape.join(', ')}]`,
    );
  }
  tf.tidy(() => distillationKlLoss(tf.zeros([1, 2]), tf.zeros([1, 2]), options)).dispose(); // validates τ and reduction up front
  let unprotected = options.unprotected;
  const owned = unprotected === undefined;
  unprotected ??= createModel();
  let model: Classifier | undefined;
  let teacher: tf.Tensor2D | undefined;
  try {
    if (owned) await train(unprotected, privateData, options.unprotectedTraining);
    teacher = predictLogits(unprotected, reference);
    model = createModel();
    const plugins = [distillationPlugin(teacher, options), ...(options.protectedTraining.plugins ?? [])];
    await train(model, reference, { ...options.protectedTraining, plugins });
    return { model, unprotected };
  } catch (error) {
    model?.dispose();
    if (owned) unprotected.dispose();
    throw error;
  } finally {
    teacher?.dispose();
  }
}
