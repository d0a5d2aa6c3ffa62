import { seededRandom } from '@mia/core';

/**
 * The inclusion vector of a one-run audit: each of `count` canaries in (1) or out (0) independently
 * with probability ½, from the stream seeded by `seed` (Steinke, Nasr & Jagielski 2023, Algorithm 1).
 * @internal
 */
export function drawInclusion(count: number, seed: number): Uint8Array {
  const random = seededRandom(seed);
  return Uint8Array.from({ length: count }, () => (random.next() < 0.5 ? 1 : 0));
}
