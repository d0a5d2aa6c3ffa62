import * as tf from '@tensorflow/tfjs-core';
import type { Classifier } from './classifier';
import { crossEntropyPerExample } from './cross-entropy';
import type { LabeledData } from './labeled-data';
import { checkPositiveInteger } from './validate';

/** Options of {@link predictLogits} and {@link evaluate}. */
export interface PredictOptions {
  /** Examples per forward pass. @default 256 */
  readonly batchSize?: number;
  /** Indices of `data` to run on. @default all, in order */
  readonly indices?: ArrayLike<number>;
}

/**
 * Eval-mode logits of `classifier` on `data`, batched, `[n, C]` (and features when asked).
 * The caller disposes the returned tensors.
 */
export function predictLogits(classifier: Classifier, data: LabeledData, options: PredictOptions = {}): tf.Tensor2D {
  const { logits, features } = predictOutputs(classifier, data, options);
  features.dispose();
  return logits;
}

/** Eval-mode logits and features, batched; the caller disposes both tensors. */
export function predictOutputs(classifier: Classifier, data: LabeledData, options: PredictOptions = {}): { logits: tf.Tensor2D; features: tf.Tensor2D } {
  const batchSize = options.batchSize ?? 256;
  checkPositiveInteger('predictLogits', 'batchSize', batchSize);
  const all = options.indices === undefined ? Int32Array.from({ length: data.size }, (_, i) => i) : Int32Array.from(options.indices);
  const logits: tf.Tensor[] = [];
  const features: tf.Tensor[] = [];
  try {
    for (let start = 0; start < all.length; start += batchSize) {
      const idx = all.subarray(start, Math.min(start + batchSize, all.length));
      const out = tf.tidy(() => {
        const x = data.gather(idx);
        const r = classifier.forward(x, { training: false });
        return [r.logits, r.features] as const;
      });
      logits.push(out[0]);
      features.push(out[1]);
    }
    if (logits.length === 0) return { logits: tf.zeros([0, classifier.numClasses]), features: tf.zeros([0, classifier.featureDim]) };
    return { logits: tf.concat(logits, 0) as tf.Tensor2D, features: tf.concat(features, 0) as tf.Tensor2D };
  } finally {
    for (const t of [...logits, ...features]) t.dispose();
  }
}

/** Result of {@link evaluate}. */
export interface EvaluationResult {
  /** Mean cross-entropy. */
  readonly loss: number;
  /** Top-1 accuracy in [0, 1]. */
  readonly accuracy: number;
  /** Per-example cross-entropy. */
  readonly losses: Float32Array;
  /** Per-example correctness (1/0). */
  readonly correct: Uint8Array;
}

/** Eval-mode loss and accuracy of `classifier` on `data` (or on `options.indices`). */
export function evaluate(classifier: Classifier, data: LabeledData, options: PredictOptions = {}): EvaluationResult {
  const idx = options.indices === undefined ? Int32Array.from({ length: data.size }, (_, i) => i) : Int32Array.from(options.indices);
  const logits = predictLogits(classifier, data, { ...options, indices: idx });
  const labels = Int32Array.from(idx, (i) => data.y[i]!);
  const [losses, predicted] = tf.tidy(() => {
    const y = tf.tensor1d(labels, 'int32');
    return [crossEntropyPerExample(logits, y), tf.argMax(logits, 1)];
  });
  logits.dispose();
  const lossValues = losses.dataSync() as Float32Array;
  const predValues = predicted.dataSync();
  losses.dispose();
  predicted.dispose();
  const correct = new Uint8Array(labels.length);
  let hits = 0;
  let sum = 0;
  for (let i = 0; i < labels.length; i++) {
    correct[i] = predValues[i] === labels[i] ? 1 : 0;
    hits += correct[i]!;
    sum += lossValues[i]!;
  }
  const n = Math.max(1, labels.length);
  return { loss: sum / n, accuracy: hits / n, losses: Float32Array.from(lossValues), correct };
}
