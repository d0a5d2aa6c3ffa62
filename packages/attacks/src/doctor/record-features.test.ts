import { describe, expect, it } from 'vitest';
import { contentHashes } from './content-hashes';
import { HASHED_FEATURES, recordFeatures } from './record-features';

describe('recordFeatures', () => {
  it('summarises a 4×4 one-channel image by its mean, variance and 4×4 grid, then the one-hot label', () => {
    // Pixels 0..15 row-major: mean 7.5, variance (16² − 1) / 12 = 21.25, each grid cell is one pixel.
    const image = Float32Array.from({ length: 16 }, (_, i) => i);
    const { features, numFeatures, description } = recordFeatures(image, [4, 4, 1], [2], 3);
    expect(numFeatures).toBe(2 + 16 + 3);
    expect(features[0]).toBeCloseTo(7.5, 6);
    expect(features[1]).toBeCloseTo(21.25, 4);
    expect(Array.from(features.subarray(2, 18))).toEqual(Array.from(image));
    expect(Array.from(features.subarray(18))).toEqual([0, 0, 1]);
    expect(description).toBe(
      'per-channel mean and variance and a 4×4 grid of mean intensities of each image (on at most 8×8 evenly spaced pixels), and its label (one-hot)',
    );
  });

  it('reads a 32×32 image on every fourth row and column', () => {
    // Pixel value = its column: the sampled columns 0, 4, …, 28 average 14 (all 32 would average 15.5); grid cell k of a row holds columns 8k and 8k+4.
    const image = Float32Array.from({ length: 32 * 32 }, (_, p) => p % 32);
    const { features } = recordFeatures(image, [32, 32, 1], [0], 1);
    expect(features[0]).toBeCloseTo(14, 6);
    expect(Array.from(features.subarray(2, 6))).toEqual([2, 10, 18, 26]);
  });

  it('keeps up to 128 tabular values and hashes more into 128 signed buckets (the sum of squares is kept in expectation)', () => {
    const small = recordFeatures(Float32Array.from([1, 2, 3, 4]), [2], [0, 1], 2);
    expect(Array.from(small.features)).toEqual([1, 2, 1, 0, 3, 4, 0, 1]);
    const wide = new Float32Array(600).fill(1);
    const hashed = recordFeatures(wide, [600], [0], 1);
    expect(hashed.numFeatures).toBe(HASHED_FEATURES + 1);
    // Every value lands in one bucket with a sign: the bucket sums add up to (#plus − #minus) ≤ 600 in magnitude.
    const buckets = Array.from(hashed.features.subarray(0, HASHED_FEATURES));
    expect(buckets.reduce((s, v) => s + Math.abs(v), 0)).toBeLessThanOrEqual(600);
    expect(buckets.filter((v) => v !== 0).length).toBeGreaterThan(100);
    expect(hashed.description).toBe("the records' 600 values hashed into 128 signed buckets, and its label (one-hot)");
  });

  it('reads the labels alone without values, and names a bad label or size', () => {
    expect(recordFeatures(undefined, [5], [1, 0], 2)).toMatchObject({
      numFeatures: 2,
      description: 'no record content (labels only), and its label (one-hot)',
    });
    expect(() => recordFeatures(new Float32Array(3), [2], [0, 1], 2)).toThrow(/values must hold 2 records of 2 numbers \(shape \[2\]\), got 3 numbers/);
    expect(() => recordFeatures(undefined, [2], [0, 2], 2)).toThrow(/labels\[1\] must be an integer in \[0, 2\), got 2/);
  });
});

describe('contentHashes', () => {
  it('gives equal records equal hashes and different records different ones, whatever their position', () => {
    const hashes = contentHashes(Float32Array.from([1, 2, 3, 1, 2, 3, 1, 2, 4, 3, 2, 1]), 3);
    expect(hashes[0]).toBe(hashes[1]);
    expect(new Set(hashes).size).toBe(3);
    expect(hashes[0]).toMatch(/^[0-9a-f]{16}$/);
    expect(() => contentHashes(new Float32Array(5), 2)).toThrow(/whole records of recordLength \(2\) numbers, got 5/);
  });
});
