import { ShapeMismatchError } from '@mia/core';

/** Accuracy of two models on one bucket. */
export interface BucketAccuracy {
  readonly bucket: number;
  readonly count: number;
  /** Accuracy of model A (e.g. SGD) on the bucket, in [0, 1]; NaN for an empty bucket. */
  readonly accuracyA: number;
  /** Accuracy of model B (e.g. SAM / SWA / SharpReg). */
  readonly accuracyB: number;
  /** `accuracyB − accuracyA`. */
  readonly gain: number;
}

/**
 * Per-bucket test accuracy of two models (SAM-privacy Fig. 3a, 4a, 5: SAM/SWA gain most on
 * bucket 1, the test points that need memorisation).
 *
 * @param buckets - bucket per test point (from {@link bucketByInfluenceEntropy}).
 * @param correctA - per-test-point correctness (1/0 or booleans) of model A.
 * @param correctB - the same for model B.
 * @param numBuckets - buckets are 1..numBuckets. @default 5
 * @throws ShapeMismatchError when lengths differ.
 */
export function bucketAccuracy(
  buckets: ArrayLike<number>,
  correctA: ArrayLike<number | boolean>,
  correctB: ArrayLike<number | boolean>,
  numBuckets = 5,
): BucketAccuracy[] {
  if (correctA.length !== buckets.length || correctB.length !== buckets.length) {
    throw new ShapeMismatchError(
      `bucketAccuracy: correctA and correctB must have ${buckets.length} entries (one per bucketed point), got ${correctA.length} and ${correctB.length}`,
    );
  }
  const count = new Float64Array(numBuckets + 1);
  const hitsA = new Float64Array(numBuckets + 1);
  const hitsB = new Float64Array(numBuckets + 1);
  for (let i = 0; i < buckets.length; i++) {
    const b = buckets[i]!;
    if (!(b >= 1 && b <= numBuckets)) continue;
    count[b]! += 1;
    hitsA[b]! += Number(correctA[i]!);
    hitsB[b]! += Number(correctB[i]!);
  }
  const out: BucketAccuracy[] = [];
  for (let b = 1; b <= numBuckets; b++) {
    const accuracyA = hitsA[b]! / count[b]!;
    const accuracyB = hitsB[b]! / count[b]!;
    out.push({ bucket: b, count: count[b]!, accuracyA, accuracyB, gain: accuracyB - accuracyA });
  }
  return out;
}
