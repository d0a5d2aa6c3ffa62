import type * as tf from '@tensorflow/tfjs-core';
import type { Classifier, PerExampleTape } from '@mia/core';

/**
 * The `tapedForward` of `dpSgdPlugin` for a `Classifier` that runs its layers through a tape passed
 * in its forward options (`model.forward(x, { training: true, seed, tape })`), as the architectures
 * of `@mia/models` do (build them with `norm: 'group'` or `'none'`: batch norm is refused):
 * `dpSgdPlugin({ …, tapedForward: classifierTapedForward })`. A classifier that ignores the tape
 * makes the step fail with the variables it found outside it.
 * @param model - the classifier being trained.
 * @param x - the batch.
 * @param tape - the per-example tape of the step.
 * @param options - `seed`: the step's seed for stochastic layers (dropout).
 * @returns the logits `[n, C]`.
 * @see docs/protocol.md §4.16
 */
export function classifierTapedForward(model: Classifier, x: tf.Tensor, tape: PerExampleTape, options: { readonly seed: number }): tf.Tensor2D {
  return model.forward(x, { training: true, seed: options.seed, tape }).logits;
}
