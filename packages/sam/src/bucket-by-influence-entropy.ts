import { checkNumberInRange } from '@mia/core';

/** Options of {@link bucketByInfluenceEntropy}. */
export interface InfluenceBucketOptions {
  /** Finite entropies above this go to bucket 4. @default 6.1 (CIFAR-100, m = 500 points per class: ln 500 ≈ 6.21) */
  readonly highThreshold?: number;
  /** Half-width of bucket 2 in standard deviations around the mean. @default 0.4 */
  readonly width?: number;
}

/**
 * The five buckets of SAM-privacy App. C.1 (1 = most memorisation … 5 = none):
 * bucket 5 = all-zero influence (`entropy = +Infinity`); bucket 4 = entropy > `highThreshold`;
 * the rest, with mean μ and (population) standard deviation σ of their entropies:
 * bucket 1 = below μ − 0.4σ, bucket 2 = within [μ − 0.4σ, μ + 0.4σ], bucket 3 = above μ + 0.4σ.
 *
 * @param entropy - from {@link influenceEntropy}.
 * @returns bucket numbers 1..5, one per test point.
 * @throws InvalidArgumentError on bad options.
 * @see SAM-privacy App. C.1, Fig. 3, 6.
 */
export function bucketByInfluenceEntropy(entropy: ArrayLike<number>, options: InfluenceBucketOptions = {}): Int32Array {
  const high = options.highThreshold ?? 6.1;
  const width = options.width ?? 0.4;
  checkNumberInRange('bucketByInfluenceEntropy', 'highThreshold', high);
  checkNumberInRange('bucketByInfluenceEntropy', 'width', width, 0);
  const buckets = new Int32Array(entropy.length);
  let sum = 0;
  let sumSq = 0;
  let n = 0;
  for (let i = 0; i < entropy.length; i++) {
    const h = entropy[i]!;
    if (h === Infinity) buckets[i] = 5;
    else if (h > high) buckets[i] = 4;
    else {
      sum += h;
      sumSq += h * h;
      n += 1;
    }
  }
  const mean = n > 0 ? sum / n : 0;
  const std = n > 0 ? Math.sqrt(Math.max(sumSq / n - mean * mean, 0)) : 0;
  for (let i = 0; i < entropy.length; i++) {
    if (buckets[i] !== 0) continue;
    const h = entropy[i]!;
    buckets[i] = h < mean - width * std ? 1 : h > mean + width * std ? 3 : 2;
  }
  return buckets;
}
