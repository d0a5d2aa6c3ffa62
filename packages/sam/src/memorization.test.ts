import { describe, expect, it } from 'vitest';
import { bucketAccuracy } from './bucket-accuracy';
import { bucketByInfluenceEntropy } from './bucket-by-influence-entropy';
import { influenceEntropy } from './influence-entropy';

describe('influenceEntropy (SAM-privacy Eq. 3)', () => {
  it('known answers: uniform over 2 → ln 2, one point → 0, all zero → +Infinity', () => {
    const infl = [1, 1, 0, 0, /**/ 0, 0.3, 0, 0, /**/ 0, 0, 0, 0, /**/ 0.25, 0.25, 0.25, 0.25];
    const { entropy, allZero } = influenceEntropy(infl, { numTest: 4, numTrain: 4 });
    expect(entropy[0]).toBeCloseTo(Math.LN2, 12);
    expect(entropy[1]).toBe(0);
    expect(entropy[2]).toBe(Infinity);
    expect(entropy[3]).toBeCloseTo(Math.log(4), 12);
    expect(Array.from(allZero)).toEqual([0, 0, 1, 0]);
  });
  it('restricts each test point to same-class training points', () => {
    // test 0 is class 1: only train 1 and 3 count → [2, 2] → ln 2; test 1 is class 0: [5, 0] → 0
    const infl = [9, 2, 9, 2, /**/ 5, 7, 0, 7];
    const { entropy } = influenceEntropy(infl, { numTest: 2, numTrain: 4, testLabels: [1, 0], trainLabels: [0, 1, 0, 1] });
    expect(entropy[0]).toBeCloseTo(Math.LN2, 12);
    expect(entropy[1]).toBe(0);
  });
  it("negative influences: 'clip' drops them, 'abs' uses their magnitude", () => {
    const infl = [1, -1];
    expect(influenceEntropy(infl, { numTest: 1, numTrain: 2 }).entropy[0]).toBe(0);
    expect(influenceEntropy(infl, { numTest: 1, numTrain: 2, negative: 'abs' }).entropy[0]).toBeCloseTo(Math.LN2, 12);
  });
  it('rejects wrong sizes and NaN', () => {
    expect(() => influenceEntropy([1, 2, 3], { numTest: 2, numTrain: 2 })).toThrow(/influence must have numTest·numTrain = 4 entries, got 3/);
    expect(() => influenceEntropy([1, NaN], { numTest: 1, numTrain: 2 })).toThrow(/NaN at test 0, train 1/);
    expect(() => influenceEntropy([1, 1], { numTest: 1, numTrain: 2, testLabels: [0] })).toThrow(/testLabels and trainLabels/);
  });
});

describe('bucketByInfluenceEntropy (SAM-privacy App. C.1)', () => {
  it('known answer', () => {
    // Infinity → 5, 6.5 > 6.1 → 4; the rest [1, 2, 3, 4, 5, 2.44, 3.56] has μ = 3 and population
    // σ = 1.2321410 (NumPy), so μ ± 0.4σ = [2.5071436, 3.4928564]: 2.44 → 1, 3 → 2, 3.56 → 3.
    const entropy = [Infinity, 6.5, 1, 2, 3, 4, 5, 2.44, 3.56];
    expect(Array.from(bucketByInfluenceEntropy(entropy))).toEqual([5, 4, 1, 1, 2, 3, 3, 1, 3]);
    // [1..5]: μ = 3, σ = √2, bounds [2.434, 3.566]
    expect(Array.from(bucketByInfluenceEntropy([1, 2, 3, 4, 5]))).toEqual([1, 1, 2, 3, 3]);
    // 3 > 2.5 → 4; [1, 2]: μ = 1.5, σ = 0.5, bounds [1.3, 1.7]
    expect(Array.from(bucketByInfluenceEntropy([1, 2, 3], { highThreshold: 2.5 }))).toEqual([1, 3, 4]);
  });
  it('rejects bad options', () => {
    expect(() => bucketByInfluenceEntropy([1], { width: -1 })).toThrow(/width must be a number in \[0, Infinity\], got -1/);
  });
});

describe('bucketAccuracy', () => {
  it('per-bucket accuracies and the gain of model B', () => {
    const buckets = [1, 1, 2, 2, 2, 5];
    const result = bucketAccuracy(buckets, [0, 1, 1, 1, 0, 1], [1, 1, 1, 1, 1, 1]);
    expect(result[0]).toEqual({ bucket: 1, count: 2, accuracyA: 0.5, accuracyB: 1, gain: 0.5 });
    expect(result[1]!.accuracyA).toBeCloseTo(2 / 3, 12);
    expect(result[2]!.count).toBe(0);
    expect(Number.isNaN(result[2]!.accuracyA)).toBe(true);
    expect(result[4]).toEqual({ bucket: 5, count: 1, accuracyA: 1, accuracyB: 1, gain: 0 });
  });
  it('rejects mismatched lengths', () => {
    expect(() => bucketAccuracy([1, 2], [1], [1, 0])).toThrow(/correctA and correctB must have 2 entries/);
  });
});
