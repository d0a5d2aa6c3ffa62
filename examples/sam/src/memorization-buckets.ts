import { bucketAccuracy, bucketByInfluenceEntropy, influenceEntropy } from '@mia/sam';

/** Per-bucket numbers of SAM-privacy Fig. 3 / 5a. */
export interface BucketSummary {
  readonly bucket: number;
  readonly count: number;
  /** Optimiser → test accuracy on the bucket (NaN when empty). */
  readonly accuracy: Record<string, number>;
  /** Mean memorisation score of each test point's most influential same-class training point (NaN when empty or unknown). */
  readonly topMemorization: number;
  /** Standard error of `topMemorization`: sample std / √n over the bucket's points (NaN with fewer than 2). */
  readonly topMemorizationSe: number;
}

/** Input of {@link memorizationBuckets}. */
export interface MemorizationBucketsInput {
  /** Row-major `[numTest × numTrain]` influence `infl(train j → test i)`. */
  readonly influence: ArrayLike<number>;
  /** Self-influence per training point (NaN where unknown). */
  readonly memorization?: ArrayLike<number>;
  readonly testLabels: Int32Array;
  readonly trainLabels: Int32Array;
  readonly numClasses: number;
  /** Optimiser → per-test-point correctness (first entry = the reference, e.g. SGD). */
  readonly correct: Readonly<Record<string, ArrayLike<number>>>;
}

/**
 * Buckets test points by influence entropy over same-class training points (SAM-privacy Eq. 3,
 * App. C.1) and measures each optimiser's accuracy per bucket (Fig. 3a, 5a) and the memorisation of
 * each bucket's top-1 influential training points (Fig. 3b–c). Bucket 4's threshold 6.1 (for
 * m = 500 points per class) is scaled by ln m̄ / ln 500 to the run's mean class size m̄.
 *
 * @returns one summary per bucket 1..5, plus the threshold used.
 * @see SAM-privacy §3.2, Eq. 3, App. C.1; `@mia/sam` influenceEntropy, bucketByInfluenceEntropy
 */
export function memorizationBuckets(input: MemorizationBucketsInput): { buckets: BucketSummary[]; highThreshold: number } {
  const numTest = input.testLabels.length;
  const numTrain = input.trainLabels.length;
  // The estimator leaves NaN where a training point was in every (or no) subset model: no evidence, so 0.
  const influence = Float64Array.from(input.influence, (v) => (Number.isNaN(v) ? 0 : v));
  const { entropy } = influenceEntropy(influence, { numTest, numTrain, testLabels: input.testLabels, trainLabels: input.trainLabels });
  const m = Math.max(2, numTrain / input.numClasses);
  const highThreshold = (6.1 * Math.log(m)) / Math.log(500);
  const buckets = bucketByInfluenceEntropy(entropy, { highThreshold });
  const names = Object.keys(input.correct);
  const reference = input.correct[names[0]!]!;
  const accuracy: Record<string, number[]> = {};
  for (const name of names) accuracy[name] = bucketAccuracy(buckets, reference, input.correct[name]!).map((b) => b.accuracyB);
  const counts = bucketAccuracy(buckets, reference, reference).map((b) => b.count);
  // Top-1 influential same-class training point of each test point (raw influence, negatives included).
  const memSum = new Float64Array(6);
  const memCount = new Float64Array(6);
  const memSq = new Float64Array(6);
  for (let i = 0; i < numTest; i++) {
    let best = -1;
    for (let j = 0; j < numTrain; j++) {
      if (input.trainLabels[j] !== input.testLabels[i]) continue;
      if (best < 0 || influence[i * numTrain + j]! > influence[i * numTrain + best]!) best = j;
    }
    const mem = best < 0 || input.memorization === undefined ? NaN : input.memorization[best]!;
    if (Number.isFinite(mem)) {
      memSum[buckets[i]!]! += mem;
      memSq[buckets[i]!]! += mem * mem;
      memCount[buckets[i]!]! += 1;
    }
  }
  return {
    highThreshold,
    buckets: [1, 2, 3, 4, 5].map((b) => ({
      bucket: b,
      count: counts[b - 1]!,
      accuracy: Object.fromEntries(names.map((n) => [n, accuracy[n]![b - 1]!])),
      topMemorization: memCount[b]! > 0 ? memSum[b]! / memCount[b]! : NaN,
      topMemorizationSe: memCount[b]! > 1 ? Math.sqrt(Math.max(0, (memSq[b]! - memSum[b]! ** 2 / memCount[b]!) / (memCount[b]! - 1)) / memCount[b]!) : NaN,
    })),
  };
}
