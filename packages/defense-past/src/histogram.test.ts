import { describe, expect, it } from 'vitest';
import { histogram, sharedHistograms } from './histogram';

describe('histogram', () => {
  it('counts into equal-width bins with a closed last bin', () => {
    const h = histogram([0, 0.1, 0.5, 0.99, 1], { bins: 2 });
    expect(h.edges).toEqual([0, 0.5, 1]);
    expect(h.counts).toEqual([2, 3]);
    expect(histogram([3, 3]).counts.reduce((a, b) => a + b, 0)).toBe(2);
    expect(histogram([-5, 0, 5], { bins: 2, range: [-1, 1] }).counts).toEqual([0, 1]);
  });

  it('shares the bins of several series (weights before / after)', () => {
    const [a, b] = sharedHistograms(
      [
        [-1, 0],
        [[0.5], [1]],
      ],
      { bins: 4 },
    );
    expect(a!.edges).toEqual([-1, -0.5, 0, 0.5, 1]);
    expect(b!.edges).toEqual(a!.edges);
    expect(a!.counts).toEqual([1, 0, 1, 0]);
    expect(b!.counts).toEqual([0, 0, 0, 2]);
  });

  it('rejects bad options', () => {
    expect(() => histogram([1], { bins: 0 })).toThrow('histogram: bins must be a positive integer, got 0');
    expect(() => histogram([1], { range: [2, 1] })).toThrow('histogram: range must be finite [min, max] with min <= max');
  });
});
