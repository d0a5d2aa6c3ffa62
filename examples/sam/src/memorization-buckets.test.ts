import { describe, expect, it } from 'vitest';
import { memorizationBuckets } from './memorization-buckets';

describe('memorizationBuckets', () => {
  // Hand-worked example: 2 classes, 4 members (2 per class), 5 test points.
  // Same-class entropies: t0 [1,0] → 0; t1 [1,1] → ln 2 = 0.693; t2 [1,3] → 0.562; t3 all zero → ∞;
  // t4 [−1,0] clipped → all zero → ∞. m̄ = 2 → bucket-4 threshold 6.1·ln 2/ln 500 = 0.680, so t1 → 4;
  // t0, t2: mean 0.281, σ 0.281 → t0 < mean − 0.4σ → 1, t2 > mean + 0.4σ → 3; t3, t4 → 5.
  const influence = [1, 0, 9, 9, 1, 1, 0, 0, 0, 0, 1, 3, 5, 5, 0, 0, -1, NaN, 0, 0];
  const input = {
    influence,
    memorization: [0.1, 0.2, 0.3, 0.4],
    numClasses: 2,
    trainLabels: Int32Array.from([0, 0, 1, 1]),
    testLabels: Int32Array.from([0, 0, 1, 1, 0]),
    correct: { SGD: [1, 0, 1, 0, 1], SAM: [1, 1, 0, 0, 0] },
  };

  it('buckets by same-class influence entropy and measures accuracy and top-1 memorisation per bucket', () => {
    const { buckets, highThreshold } = memorizationBuckets(input);
    expect(highThreshold).toBeCloseTo((6.1 * Math.log(2)) / Math.log(500), 12);
    expect(buckets.map((b) => b.count)).toEqual([1, 0, 1, 1, 2]);
    expect(buckets.map((b) => b.accuracy.SGD)).toEqual([1, NaN, 1, 0, 0.5]);
    expect(buckets.map((b) => b.accuracy.SAM)).toEqual([1, NaN, 0, 1, 0]);
    // Top-1 same-class member (raw influence, NaN read as 0): t0 → 0, t1 → 0 (tie, first), t2 → 3, t3 → 2, t4 → 1.
    const mem = buckets.map((b) => b.topMemorization);
    expect(mem[0]).toBeCloseTo(0.1, 12);
    expect(mem[1]).toBeNaN();
    expect(mem[2]).toBeCloseTo(0.4, 12);
    expect(mem[3]).toBeCloseTo(0.1, 12);
    // Bucket 5 holds t3 (top member 2, score 0.3) and t4 (member 1, 0.2): SE = sample std / √2 = 0.0707 / 1.414 = 0.05;
    // a bucket of one point has no SE.
    expect(buckets[4]!.topMemorizationSe).toBeCloseTo(0.05, 12);
    expect(buckets[0]!.topMemorizationSe).toBeNaN();
    expect(mem[4]).toBeCloseTo(0.25, 12);
  });

  it('rejects a matrix of the wrong size', () => {
    expect(() => memorizationBuckets({ ...input, influence: influence.slice(1) })).toThrow(/influence must have numTest·numTrain = 20 entries, got 19/);
  });
});
