import * as tf from '@tensorflow/tfjs-core';
import { labeledData, type LabeledData } from '../labeled-data';
import { seededRandom } from '../random';
import { checkPositiveInteger } from '../validate';

/** Options of {@link syntheticClassification}. */
export interface SyntheticClassificationOptions {
  readonly size: number;
  readonly numFeatures: number;
  readonly numClasses: number;
  /** Std of the Gaussian noise around each class prototype (prototypes are N(0, 1)). @default 1 */
  readonly noise?: number;
  /** @default 0 */
  readonly seed?: number;
  /** Seed of the class prototypes, so several splits can share one task. @default 12345 */
  readonly taskSeed?: number;
}

/**
 * A Gaussian-prototype classification dataset for tests: class c has prototype `μ_c ~ N(0, I)`,
 * examples are `μ_y + noise·N(0, I)` with uniformly drawn labels. The returned data owns a tensor;
 * call `dispose()` when done.
 */
export function syntheticClassification(options: SyntheticClassificationOptions): LabeledData & { dispose(): void } {
  checkPositiveInteger('syntheticClassification', 'size', options.size);
  checkPositiveInteger('syntheticClassification', 'numFeatures', options.numFeatures);
  checkPositiveInteger('syntheticClassification', 'numClasses', options.numClasses);
  const { size, numFeatures, numClasses } = options;
  const noise = options.noise ?? 1;
  const task = seededRandom(options.taskSeed ?? 12345);
  const prototypes = Float32Array.from({ length: numClasses * numFeatures }, () => task.normal());
  const random = seededRandom(options.seed ?? 0);
  const y = new Int32Array(size);
  const values = new Float32Array(size * numFeatures);
  for (let i = 0; i < size; i++) {
    const label = random.int(numClasses);
    y[i] = label;
    for (let j = 0; j < numFeatures; j++) {
      values[i * numFeatures + j] = prototypes[label * numFeatures + j]! + noise * random.normal();
    }
  }
  const x = tf.tensor2d(values, [size, numFeatures]);
  return Object.assign(labeledData({ x, y, numClasses }), { dispose: () => x.dispose() });
}
