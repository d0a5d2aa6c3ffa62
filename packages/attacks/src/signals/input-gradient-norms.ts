import * as tf from '@tensorflow/tfjs-core';
import { checkPositiveInteger, crossEntropyPerExample, type Classifier, type LabeledData } from '@mia/core';
import { resolveIndices } from './transformed-logits';

/** Options of {@link inputGradientNorms}. */
export interface InputGradientNormOptions {
  /** Examples per backward pass. @default 256 */
  readonly batchSize?: number;
  /** Indices of `data`, in order. @default all */
  readonly indices?: ArrayLike<number>;
  /** Norm of the per-example gradient. @default 'l2' */
  readonly norm?: 'l2' | 'l1';
}

/**
 * Per-example input-gradient norms `‖∇_x CE(f(x), y)‖` in eval mode (the Grad-x white-box signal).
 * Batched without per-example loops: in eval mode the examples of a batch do not interact, so the
 * gradient of the **sum** of per-example losses w.r.t. the batch input has, in row i, exactly
 * example i's own input gradient.
 *
 * @param classifier - The model; eval mode (batch norm must use running statistics for the trick to hold).
 * @param data - The examples.
 * @param options - {@link InputGradientNormOptions}.
 * @returns One norm per selected example (lower = more likely member). Leaves no tensor behind.
 * @see docs/protocol.md §3.6 (CRL "Grad-x ℓ2", RL `run_whitebox_attacks`).
 */
export function inputGradientNorms(classifier: Classifier, data: LabeledData, options: InputGradientNormOptions = {}): Float64Array {
  const batchSize = options.batchSize ?? 256;
  checkPositiveInteger('inputGradientNorms', 'batchSize', batchSize);
  const indices = resolveIndices(data, options.indices);
  const out = new Float64Array(indices.length);
  for (let start = 0; start < indices.length; start += batchSize) {
    const idx = indices.subarray(start, Math.min(start + batchSize, indices.length));
    const norms = tf.tidy(() => {
      const x = data.gather(idx);
      const labels = tf.tensor1d(
        Int32Array.from(idx, (i) => data.y[i]!),
        'int32',
      );
      const grad = tf.grad((input: tf.Tensor) => tf.sum(crossEntropyPerExample(classifier.forward(input, { training: false }).logits, labels)))(x);
      const flat = tf.reshape(grad, [idx.length, -1]);
      return options.norm === 'l1' ? tf.sum(tf.abs(flat), 1) : tf.sqrt(tf.sum(tf.square(flat), 1));
    });
    out.set(norms.dataSync(), start);
    norms.dispose();
  }
  return out;
}
