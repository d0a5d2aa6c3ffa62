import { contentHashes, recordFeatures, type RecordFeatures } from '@mia/attacks';
import type { PreparedData } from '../data/prepare-data';

/** Records read per `gather` (bounded memory: a CIFAR batch of 512 is 6 MB). */
const CHUNK = 512;

/** The float32 values of dataset records, chunk by chunk (no tensor left behind). */
function forEachChunk(data: PreparedData, indices: readonly number[], visit: (values: Float32Array, start: number) => void): void {
  for (let start = 0; start < indices.length; start += CHUNK) {
    const batch = data.dataset.gather(Int32Array.from(indices.slice(start, start + CHUNK)));
    try {
      visit(batch.dataSync() as Float32Array, start);
    } finally {
      batch.dispose();
    }
  }
}

/**
 * The content hash of every dataset record in `indices` (`contentHashes` of `@mia/attacks` over its
 * float32 values), by index: what the overlap checks compare besides the indices themselves.
 */
export function recordHashes(data: PreparedData, indices: Iterable<number>): Map<number, string> {
  const unique = [...new Set(indices)];
  const width = data.dataset.inputShape.reduce((a, b) => a * b, 1);
  const out = new Map<number, string>();
  forEachChunk(data, unique, (values, start) => contentHashes(values, width).forEach((hash, j) => out.set(unique[start + j]!, hash)));
  return out;
}

/** The blind baseline's features of dataset records (`recordFeatures` of `@mia/attacks`, chunk by chunk). */
export function datasetRecordFeatures(data: PreparedData, indices: readonly number[]): RecordFeatures {
  const { inputShape, numClasses, y } = data.dataset;
  let features: Float32Array | undefined;
  let numFeatures = 0;
  let description = '';
  forEachChunk(data, indices, (values, start) => {
    const labels = Int32Array.from(indices.slice(start, start + CHUNK), (i) => y[i]!);
    const part = recordFeatures(values, inputShape, labels, numClasses);
    if (features === undefined) {
      ({ numFeatures, description } = part);
      features = new Float32Array(indices.length * numFeatures);
    }
    features.set(part.features, start * numFeatures);
  });
  return { features: features ?? new Float32Array(0), numFeatures, description };
}
