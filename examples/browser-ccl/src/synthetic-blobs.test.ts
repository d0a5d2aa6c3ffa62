import { describe, expect, it } from 'vitest';
import { syntheticBlobs } from './synthetic-blobs';

describe('syntheticBlobs', () => {
  it('has the requested shape, labels in range and centres at ±1 without noise', () => {
    const d = syntheticBlobs({ size: 50, numFeatures: 3, numClasses: 2, noise: 0, seed: 7 });
    expect([d.size, d.features.length, d.labels.length]).toEqual([50, 150, 50]);
    expect(new Set(d.labels)).toEqual(new Set([0, 1]));
    expect(new Set(d.features)).toEqual(new Set([-1, 1])); // noise 0 leaves the ±1 centres
    // Rows of one class are identical without noise.
    const rowOf = (i: number) => Array.from(d.features.subarray(3 * i, 3 * i + 3));
    const firstOfClass = new Map<number, number[]>();
    for (let i = 0; i < 50; i += 1) {
      const seen = firstOfClass.get(d.labels[i]!);
      if (seen) expect(rowOf(i)).toEqual(seen);
      else firstOfClass.set(d.labels[i]!, rowOf(i));
    }
  });

  it('is deterministic for a seed and differs between seeds', () => {
    expect(syntheticBlobs({ seed: 3 })).toEqual(syntheticBlobs({ seed: 3 }));
    expect(syntheticBlobs({ seed: 3 }).features).not.toEqual(syntheticBlobs({ seed: 4 }).features);
  });

  it('noise has the requested standard deviation (within sampling error)', () => {
    const d = syntheticBlobs({ size: 2000, numFeatures: 5, numClasses: 1, noise: 2, seed: 1 });
    const centre = Array.from({ length: 5 }, (_, j) => Math.round(d.features.filter((_, k) => k % 5 === j).reduce((a, b) => a + b, 0) / 2000));
    const residuals = Array.from(d.features, (v, k) => v - centre[k % 5]!);
    const sd = Math.sqrt(residuals.reduce((a, r) => a + r * r, 0) / residuals.length);
    expect(sd).toBeGreaterThan(1.95); // 10 000 draws: the SD's standard error is ≈ 2/√20000 ≈ 0.014
    expect(sd).toBeLessThan(2.05);
  });

  it('rejects bad options with a clear message', () => {
    expect(() => syntheticBlobs({ size: 0 })).toThrow('syntheticBlobs: size must be a positive integer, got 0');
    expect(() => syntheticBlobs({ numClasses: 1.5 })).toThrow('syntheticBlobs: numClasses must be a positive integer, got 1.5');
    expect(() => syntheticBlobs({ noise: -1 })).toThrow('syntheticBlobs: noise must be a finite number ≥ 0, got -1');
  });
});
