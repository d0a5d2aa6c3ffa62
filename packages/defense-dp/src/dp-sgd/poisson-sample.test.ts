import { seededRandom } from '@mia/core';
import { describe, expect, it } from 'vitest';
import { poissonSample } from './poisson-sample';

describe('poissonSample', () => {
  it('includes each index independently with probability q: Binomial(N, q) batch sizes', () => {
    // 400 batches of N = 1000 at q = 0.1: size mean Nq = 100 (standard error √(Nq(1−q)/400) = 0.47,
    // tolerance 5 SE), variance Nq(1−q) = 90 (relative standard error √(2/399) ≈ 7 %, tolerance 30 %).
    // A fixed-size sampler would have variance 0.
    const random = seededRandom(1);
    const sizes: number[] = [];
    const counts = new Float64Array(1000);
    let sorted = true;
    for (let b = 0; b < 400; b++) {
      const batch = poissonSample(1000, { sampleRate: 0.1, random });
      sizes.push(batch.length);
      for (const i of batch) counts[i]! += 1;
      for (let k = 1; k < batch.length; k++) sorted &&= batch[k]! > batch[k - 1]!;
    }
    expect(sorted).toBe(true); // sorted, no repeats
    const mean = sizes.reduce((a, b) => a + b, 0) / sizes.length;
    const variance = sizes.reduce((a, s) => a + (s - mean) ** 2, 0) / (sizes.length - 1);
    expect(Math.abs(mean - 100)).toBeLessThan(5 * 0.47);
    expect(Math.abs(variance / 90 - 1)).toBeLessThan(0.3);
    // Every index has the same inclusion rate: the first and last 500 get the same share (±1 %).
    const firstHalf = counts.slice(0, 500).reduce((a, b) => a + b, 0);
    const total = counts.reduce((a, b) => a + b, 0);
    expect(Math.abs(firstHalf / total - 0.5)).toBeLessThan(0.01);
  });

  it('is reproducible for a seed; q = 0 and q = 1 are the empty and the full batch', () => {
    expect(poissonSample(50, { sampleRate: 0.3, random: seededRandom(9) })).toEqual(poissonSample(50, { sampleRate: 0.3, random: seededRandom(9) }));
    expect(poissonSample(50, { sampleRate: 0.3, random: seededRandom(9) })).not.toEqual(poissonSample(50, { sampleRate: 0.3, random: seededRandom(10) }));
    expect(poissonSample(20, { sampleRate: 0, random: seededRandom(1) })).toEqual(new Int32Array(0));
    expect(poissonSample(4, { sampleRate: 1, random: seededRandom(1) })).toEqual(Int32Array.from([0, 1, 2, 3]));
  });

  it('rejects bad arguments', () => {
    expect(() => poissonSample(-1, { sampleRate: 0.1, random: seededRandom(1) })).toThrow('poissonSample: size must be a non-negative integer, got -1');
    expect(() => poissonSample(10, { sampleRate: 2, random: seededRandom(1) })).toThrow('poissonSample: sampleRate must be a number in [0, 1], got 2');
    expect(() => poissonSample(10, { sampleRate: 0.1, random: 4 as never })).toThrow(
      'poissonSample: random must be a Random (seededRandom from @mia/core), got 4',
    );
  });
});
