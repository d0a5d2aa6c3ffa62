import * as tf from '@tensorflow/tfjs-core';
import { ShapeMismatchError, type LabeledData } from '@mia/core';

/**
 * Two {@link LabeledData} as one (the examples of `a`, then those of `b`), sharing storage.
 * @throws ShapeMismatchError when the class counts or input shapes differ.
 */
export function concatData(a: LabeledData, b: LabeledData): LabeledData {
  if (a.numClasses !== b.numClasses || a.inputShape.join(',') !== b.inputShape.join(',')) {
    throw new ShapeMismatchError(
      `concatData: both datasets must have the same numClasses and inputShape, got ${a.numClasses} [${a.inputShape.join(', ')}] and ${b.numClasses} [${b.inputShape.join(', ')}]`,
    );
  }
  const y = new Int32Array(a.size + b.size);
  y.set(a.y);
  y.set(b.y, a.size);
  return {
    size: a.size + b.size,
    numClasses: a.numClasses,
    inputShape: a.inputShape,
    y,
    gather(indices) {
      const idx = Int32Array.from(indices);
      const fromA = [...idx.keys()].filter((k) => idx[k]! < a.size);
      const fromB = [...idx.keys()].filter((k) => idx[k]! >= a.size);
      if (fromB.length === 0) return a.gather(idx);
      if (fromA.length === 0) return b.gather(idx.map((i) => i - a.size));
      return tf.tidy(() => {
        const parts = tf.concat([a.gather(fromA.map((k) => idx[k]!)), b.gather(fromB.map((k) => idx[k]! - a.size))], 0);
        // Restore the requested order: position k of the output is row order[k] of `parts`.
        const order = new Int32Array(idx.length);
        fromA.forEach((k, j) => (order[k] = j));
        fromB.forEach((k, j) => (order[k] = fromA.length + j));
        return tf.gather(parts, tf.tensor1d(order, 'int32'));
      });
    },
  };
}
