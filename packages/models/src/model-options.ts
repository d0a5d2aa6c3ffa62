import { check, checkNumberInRange, checkPositiveInteger, seededRandom } from '@mia/core';
import type { Random } from '@mia/core';

/** Options every architecture accepts. */
export interface BaseModelOptions {
  /** Number of classes C. */
  readonly numClasses: number;
  /** Shape of one example without the batch axis (NHWC for images). Defaults per architecture. */
  readonly inputShape?: readonly number[];
  /** Seed of the initialisation (and of dropout when `forward` gets no seed). @default 0 */
  readonly seed?: number;
  /** Dropout probability before the last layer; 0 disables it. @default 0 (InceptionV4: 0.2) */
  readonly dropout?: number;
}

/** Validated common options. @internal */
export interface ResolvedBaseOptions {
  readonly numClasses: number;
  readonly inputShape: number[];
  readonly seed: number;
  readonly dropout: number;
  readonly random: Random;
}

/**
 * Validates the common options of an architecture builder.
 * @param fn - builder name for error messages.
 * @param rank - required input rank (1 for vectors, 3 for `[h, w, c]` images).
 * @internal
 */
export function resolveBaseOptions(fn: string, options: BaseModelOptions, defaultInputShape: readonly number[], defaultDropout = 0): ResolvedBaseOptions {
  check(typeof options === 'object' && options !== null, fn, 'options', 'an object', options);
  checkPositiveInteger(fn, 'numClasses', options.numClasses);
  const inputShape = [...(options.inputShape ?? defaultInputShape)];
  check(
    inputShape.length === defaultInputShape.length && inputShape.every((d) => Number.isInteger(d) && d > 0),
    fn,
    'inputShape',
    `${defaultInputShape.length} positive integers`,
    options.inputShape,
  );
  const seed = options.seed ?? 0;
  check(Number.isInteger(seed), fn, 'seed', 'an integer', seed);
  const dropout = options.dropout ?? defaultDropout;
  checkNumberInRange(fn, 'dropout', dropout, 0, 0.999);
  return { numClasses: options.numClasses, inputShape, seed, dropout, random: seededRandom(seed) };
}
