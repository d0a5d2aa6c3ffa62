import * as tf from '@tensorflow/tfjs-core';
import { checkPositiveInteger, seededRandom } from '@mia/core';

/** Options of {@link createClassCenters}. */
export interface ClassCentersOptions {
  /** Seed of the N(0, 1) initialisation. @default 0 */
  readonly seed?: number;
  /** Variable name (must be unique among the run's variables). @default a unique `crl_centers_<k>` */
  readonly name?: string;
}

let instances = 0;

/**
 * Learnable class centres `c ∈ R^{C×d}`, initialised `N(0, 1)` like the reference's
 * `randn(C, d)` (seeded here). The caller owns (and disposes) the variable.
 *
 * @throws InvalidArgumentError on non-positive sizes.
 * @see CRL Algorithm 1 line 1; docs/protocol.md §6 item 35.
 */
export function createClassCenters(numClasses: number, featureDim: number, options: ClassCentersOptions = {}): tf.Variable<tf.Rank.R2> {
  checkPositiveInteger('createClassCenters', 'numClasses', numClasses);
  checkPositiveInteger('createClassCenters', 'featureDim', featureDim);
  const random = seededRandom(options.seed ?? 0);
  const values = Float32Array.from({ length: numClasses * featureDim }, () => random.normal());
  const init = tf.tensor2d(values, [numClasses, featureDim]);
  const v = tf.variable(init, true, options.name ?? `crl_centers_${(instances++).toString(36)}`);
  init.dispose();
  return v;
}
