import type * as tf from '@tensorflow/tfjs-core';
import { ShapeMismatchError } from '@mia/core';

/**
 * Checks that `logits` is `[n, C]` with C ≥ 2 and `labels` is `[n]`.
 * @throws ShapeMismatchError naming `fn`.
 * @internal
 */
export function checkLogitsAndLabels(fn: string, logits: tf.Tensor, labels: tf.Tensor): void {
  if (logits.rank !== 2 || logits.shape[1]! < 2) {
    throw new ShapeMismatchError(`${fn}: logits must have shape [n, C] with C >= 2, got [${logits.shape.join(', ')}]`);
  }
  if (labels.rank !== 1 || labels.shape[0] !== logits.shape[0]) {
    throw new ShapeMismatchError(`${fn}: labels must have shape [${logits.shape[0]}], got [${labels.shape.join(', ')}]`);
  }
}
