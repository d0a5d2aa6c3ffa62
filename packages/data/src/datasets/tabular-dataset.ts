import * as tf from '@tensorflow/tfjs-core';
import { InvalidDatasetError, checkPositiveInteger } from '@mia/core';
import type { DatasetSource, TabularDataset } from './dataset';
import { checkIndices, checkStoredLabels } from './check-stored';

/** Input of {@link tabularDataset}. */
export interface TabularDatasetInit {
  readonly name: string;
  readonly source: DatasetSource;
  readonly description: string;
  /** `labels.length·numFeatures` bytes, row-major, each 0 or 1. */
  readonly features: Uint8Array;
  readonly numFeatures: number;
  readonly labels: Int32Array;
  readonly numClasses: number;
}

/**
 * Wraps binary features as a {@link TabularDataset}: `gather(indices)` returns float32 `[k, F]`.
 * @throws InvalidDatasetError when the sizes disagree, a feature is not 0/1, or a label is out of range.
 */
export function tabularDataset(init: TabularDatasetInit): TabularDataset {
  const { features, numFeatures, labels, numClasses, name } = init;
  checkPositiveInteger('tabularDataset', 'numFeatures', numFeatures);
  if (features.length !== labels.length * numFeatures) {
    throw new InvalidDatasetError(
      `tabularDataset(${name}): features must hold ${labels.length} rows of ${numFeatures} (${labels.length * numFeatures}), got ${features.length}`,
    );
  }
  const bad = features.findIndex((v) => v > 1);
  if (bad >= 0) {
    throw new InvalidDatasetError(
      `tabularDataset(${name}): features must be 0 or 1, got ${features[bad]} at row ${Math.floor(bad / numFeatures)}, column ${bad % numFeatures}`,
    );
  }
  checkStoredLabels(`tabularDataset(${name})`, labels, numClasses);
  return {
    name,
    source: init.source,
    description: init.description,
    size: labels.length,
    numClasses,
    inputShape: [numFeatures],
    y: labels,
    features,
    numFeatures,
    gather(indices) {
      checkIndices(`${name}.gather`, indices, labels.length);
      const out = new Float32Array(indices.length * numFeatures);
      for (let i = 0; i < indices.length; i++) {
        const src = indices[i]! * numFeatures;
        out.set(features.subarray(src, src + numFeatures), i * numFeatures);
      }
      return tf.tensor2d(out, [indices.length, numFeatures], 'float32');
    },
  };
}
