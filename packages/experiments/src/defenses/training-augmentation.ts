import type * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, type OptionIssue, type Random } from '@mia/core';
import { randomCropFlip } from '@mia/data';
import type { ExperimentConfig, TrainingConfig } from '../schema/run-schema';
import type { DefenseRunFacts } from './definition';

/**
 * The `augment` option of `train` for a run's `training.augment` (docs/protocol.md §1.1): per image a
 * random crop of the zero-padded image and a random horizontal flip, drawn from the training loop's
 * seeded random stream; undefined without `training.augment`.
 */
export function trainingAugmentation(training: TrainingConfig): ((x: tf.Tensor, random: Random) => tf.Tensor) | undefined {
  const augment = training.augment;
  if (augment === undefined) return undefined;
  return (x, random) => randomCropFlip(x, random, { padding: augment.crop, flip: augment.flip });
}

/**
 * Fails before anything is trained when a config asks for training augmentation on non-image data.
 * @throws InvalidArgumentError naming `training.augment` and the dataset's input shape.
 */
export function checkTrainingAugmentation(config: ExperimentConfig, inputShape: readonly number[]): void {
  if (config.training.augment !== undefined && inputShape.length !== 3) {
    throw new InvalidArgumentError(
      `training.augment: crops and flips need image data ([h, w, c]); dataset ${config.dataset.name} has input shape [${inputShape.join(', ')}]; remove training.augment`,
    );
  }
}

/**
 * A defense `check` for defenses whose own training loop does not apply `training.augment`: one issue
 * when the run asks for it, so the run fails before training instead of silently not augmenting.
 */
export function refuseTrainingAugmentation(run: DefenseRunFacts): OptionIssue[] {
  if (run.training.augment === undefined) return [];
  return [
    {
      path: '',
      expected: "a run without training.augment (this defense's own training loop does not apply it)",
      got: `training.augment ${JSON.stringify(run.training.augment)}`,
    },
  ];
}
