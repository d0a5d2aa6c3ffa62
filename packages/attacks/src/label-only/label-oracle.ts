import * as tf from '@tensorflow/tfjs-core';
import { checkPositiveInteger } from '@mia/core';
import { predictFunction, type AuditableModel } from '../audit/model-outputs';

/**
 * Label-only query access to a model: the predicted class (argmax) of every row of a batch `[b, ...]`,
 * and nothing else. Every row is one query. It must not dispose `x`. It may be async (a model behind
 * an endpoint); label-only attacks count the rows they send against their query budget.
 */
export type LabelOracle = (x: tf.Tensor) => Int32Array | Promise<Int32Array>;

/** Options of {@link labelOracle}. */
export interface LabelOracleOptions {
  /** Rows per forward pass. @default 256 */
  readonly batchSize?: number;
}

/**
 * A {@link LabelOracle} over a model in memory: runs it in batches and returns the argmax of each
 * output row (the first maximiser), leaving no tensor behind.
 *
 * @param model - A `tf.LayersModel`, a `tf.GraphModel`, a `Classifier` or a predict function `x → [b, C]`.
 * @param options - {@link LabelOracleOptions}.
 * @returns The oracle.
 * @throws InvalidArgumentError when `model` is none of those or `batchSize` is not a positive integer.
 */
export function labelOracle(model: AuditableModel, options: LabelOracleOptions = {}): LabelOracle {
  const batchSize = options.batchSize ?? 256;
  checkPositiveInteger('labelOracle', 'batchSize', batchSize);
  const predict = predictFunction('labelOracle', model);
  return (x) => {
    const n = x.shape[0] ?? 0;
    const out = new Int32Array(n);
    for (let start = 0; start < n; start += batchSize) {
      const size = Math.min(batchSize, n - start);
      const labels = tf.tidy(() => {
        const batch = start === 0 && size === n ? x : tf.slice(x, start, size);
        return tf.argMax(predict(batch), 1);
      });
      out.set(labels.dataSync() as Int32Array, start);
      labels.dispose();
    }
    return out;
  };
}
