import { MetricsError } from './metrics-error';
import { describe } from './validate';

/** splitmix32 step: a well-mixed 32-bit hash of `x`. */
function mix32(x: number): number {
  let z = (x + 0x9e3779b9) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/**
 * A seeded uniform generator on [0, 1) (sfc32 seeded through splitmix32, 32 bits of resolution).
 * `@mia/metrics` depends on nothing, so it carries this tiny copy of the construction behind
 * `@mia/core`'s `seededRandom`: `seededUniform(s)()` yields the same numbers as
 * `seededRandom(s).next()`. To draw from a stream you already hold, pass `random: () => rng.next()`
 * to the bootstrap functions instead of a seed.
 *
 * @param seed - An integer seed (taken modulo 2^32).
 * @returns A function returning the next uniform number in [0, 1).
 * @throws MetricsError when the seed is not an integer.
 */
export function seededUniform(seed: number): () => number {
  if (typeof seed !== 'number' || !Number.isInteger(seed)) {
    throw new MetricsError(`seededUniform: seed must be an integer, got ${describe(seed)}`);
  }
  let a = mix32(seed >>> 0);
  let b = mix32(a);
  let c = mix32(b);
  let d = 1;
  const next = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  return next;
}
