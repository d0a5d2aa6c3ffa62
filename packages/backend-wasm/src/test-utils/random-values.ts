import { seededRandom } from '@mia/core';

/** Uniform(-1, 1) values from a seed. */
export function randomValues(size: number, seed: number): Float32Array {
  const random = seededRandom(seed);
  return Float32Array.from({ length: size }, () => 2 * random.next() - 1);
}
