import { check, checkNonNegativeInteger, checkNumberInRange, type Random } from '@mia/core';

/** Options of {@link poissonSample}. */
export interface PoissonSampleOptions {
  /** Probability q ∈ [0, 1] that each example joins the batch, independently of the others. */
  readonly sampleRate: number;
  /** The randomness (one draw per example); a `seededRandom(seed)` of `@mia/core` for reproducible batches. */
  readonly random: Random;
}

/**
 * One Poisson-sampled batch: every index of `[0, size)` is included independently with probability
 * q, so the batch size is Binomial(size, q) — possibly 0. This is the sampling the RDP accountant
 * ({@link epsilonOf}) assumes; shuffled fixed-size batches are a different mechanism.
 *
 * @example
 * const random = seededRandom(1);
 * for (let step = 0; step < steps; step++) {
 *   const indices = poissonSample(n, { sampleRate: 256 / n, random }); // ~256 indices, sorted
 * }
 * @returns the sorted indices of the batch.
 * @throws InvalidArgumentError when `size` is not a non-negative integer or q ∉ [0, 1].
 * @see Abadi et al. 2016 (arXiv:1607.00133) §3.1 "lots"; Mironov, Talwar and Zhang 2019 (arXiv:1908.10530) §3
 */
export function poissonSample(size: number, options: PoissonSampleOptions): Int32Array {
  checkNonNegativeInteger('poissonSample', 'size', size);
  checkNumberInRange('poissonSample', 'sampleRate', options.sampleRate, 0, 1);
  const random = options.random;
  check(typeof random?.next === 'function', 'poissonSample', 'random', 'a Random (seededRandom from @mia/core)', random);
  const q = options.sampleRate;
  const picked: number[] = [];
  for (let i = 0; i < size; i++) if (random.next() < q) picked.push(i);
  return Int32Array.from(picked);
}
