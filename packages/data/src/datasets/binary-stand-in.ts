import { checkNumberInRange, checkPositiveInteger, seededRandom } from '@mia/core';
import type { TabularDataset } from './dataset';
import { tabularDataset } from './tabular-dataset';

/** Generator parameters of {@link binaryStandIn}. */
export interface BinaryStandInOptions {
  readonly name: string;
  /** Records. */
  readonly size: number;
  readonly numFeatures: number;
  /** @default 100 */
  readonly numClasses?: number;
  /** Probability of a 1 in the prototypes and in the noise. */
  readonly density: number;
  /** Probability that a record copies a prototype bit; otherwise the bit is redrawn from `density`. */
  readonly keep: number;
  /** Superclass prototypes the class prototypes are mutated from (makes some classes confusable). @default 20 */
  readonly groups?: number;
  /** Probability that a class prototype bit is redrawn from its superclass prototype. @default 0.5 */
  readonly classMutation?: number;
  /** Seed of the records (labels and noise). @default 0 */
  readonly seed?: number;
  /** Seed of the prototypes: datasets with the same taskSeed share one task. @default 20240 */
  readonly taskSeed?: number;
  readonly description?: string;
}

/**
 * A synthetic binary-feature classification task with prototype + noise structure, the recipe of
 * the `purchaseLike` / `texasLike` stand-ins (packages/data/README.md). `groups` superclass prototypes
 * ~ Bernoulli(density); each class prototype redraws a `classMutation` share of its superclass's
 * bits; each record takes its class prototype and redraws every bit with probability `1 − keep`.
 * Labels are uniform. Deterministic for given seeds; marked `source: 'stand-in'`.
 * @throws InvalidArgumentError on non-positive sizes or probabilities outside [0, 1].
 */
export function binaryStandIn(options: BinaryStandInOptions): TabularDataset {
  const fn = 'binaryStandIn';
  const { size, numFeatures: f, density, keep } = options;
  const numClasses = options.numClasses ?? 100;
  const groups = options.groups ?? 20;
  const mutation = options.classMutation ?? 0.5;
  checkPositiveInteger(fn, 'size', size);
  checkPositiveInteger(fn, 'numFeatures', f);
  checkPositiveInteger(fn, 'numClasses', numClasses);
  checkPositiveInteger(fn, 'groups', groups);
  checkNumberInRange(fn, 'density', density, 0, 1);
  checkNumberInRange(fn, 'keep', keep, 0, 1);
  checkNumberInRange(fn, 'classMutation', mutation, 0, 1);
  const task = seededRandom(options.taskSeed ?? 20240);
  const superProto = Uint8Array.from({ length: groups * f }, () => (task.next() < density ? 1 : 0));
  const proto = new Uint8Array(numClasses * f);
  for (let c = 0; c < numClasses; c++) {
    const g = c % groups;
    for (let j = 0; j < f; j++) {
      proto[c * f + j] = task.next() < mutation ? (task.next() < density ? 1 : 0) : superProto[g * f + j]!;
    }
  }
  const random = seededRandom(options.seed ?? 0);
  const labels = new Int32Array(size);
  const features = new Uint8Array(size * f);
  // P(bit = 1) is keep·z + (1 − keep)·density: one uniform draw decides each bit.
  const pOne = keep + (1 - keep) * density;
  const pZero = (1 - keep) * density;
  for (let i = 0; i < size; i++) {
    const c = random.int(numClasses);
    labels[i] = c;
    const row = i * f;
    const p = c * f;
    for (let j = 0; j < f; j++) features[row + j] = random.next() < (proto[p + j] === 1 ? pOne : pZero) ? 1 : 0;
  }
  return tabularDataset({
    name: options.name,
    source: 'stand-in',
    description:
      options.description ??
      `synthetic stand-in ${options.name}: ${size} records, ${f} binary features, ${numClasses} classes (prototype + noise, density ${density}, keep ${keep}, seed ${options.seed ?? 0})`,
    features,
    numFeatures: f,
    labels,
    numClasses,
  });
}
