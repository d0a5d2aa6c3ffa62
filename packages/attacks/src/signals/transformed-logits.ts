import * as tf from '@tensorflow/tfjs-core';
import type { Classifier, LabeledData } from '@mia/core';

/** A deterministic query transform of a batch `[b, ...inputShape]` (e.g. a rotation from `@mia/data`). Must not dispose `x`. */
export type QueryTransform = (x: tf.Tensor) => tf.Tensor;

/** All example indices of `data`, or the given ones (internal). */
export function resolveIndices(data: LabeledData, indices: ArrayLike<number> | undefined): Int32Array {
  return indices === undefined ? Int32Array.from({ length: data.size }, (_, i) => i) : Int32Array.from(indices);
}

/**
 * Eval-mode logits of `classifier` on `transform(x)` for the examples at `indices`, batched, as a
 * row-major Float32Array `[n, C]` (internal). Reads data outside `tf.tidy` (docs/performance.md, root cause 1).
 */
export function transformedLogits(classifier: Classifier, data: LabeledData, indices: Int32Array, batchSize: number, transform?: QueryTransform): Float32Array {
  const c = classifier.numClasses;
  const out = new Float32Array(indices.length * c);
  for (let start = 0; start < indices.length; start += batchSize) {
    const idx = indices.subarray(start, Math.min(start + batchSize, indices.length));
    const logits = tf.tidy(() => {
      const x = data.gather(idx);
      return classifier.forward(transform === undefined ? x : transform(x), { training: false }).logits;
    });
    out.set(logits.dataSync() as Float32Array, start * c);
    logits.dispose();
  }
  return out;
}
