import { describe, expect, it } from 'vitest';
import { cellOf, mean, notRunCell, sampleStd } from './table-cells';

describe('table cells', () => {
  it('mean ± sample std (n − 1) of repeated measurements, beside the paper value', () => {
    // [0.5, 0.6, 0.7]: mean 0.6, sample variance (0.01 + 0 + 0.01)/2 = 0.01 → std 0.1.
    expect(mean([0.5, 0.6, 0.7])).toBeCloseTo(0.6, 12);
    expect(sampleStd([0.5, 0.6, 0.7])).toBeCloseTo(0.1, 12);
    expect(sampleStd([0.4])).toBe(0);
    const c = cellOf([0.5, 0.6, 0.7], [0.7992, 0.004]);
    expect(c.ours).toBeCloseTo(0.6, 12);
    expect(c.std).toBeCloseTo(0.1, 12);
    expect([c.paper, c.paperStd]).toEqual([0.7992, 0.004]);
    expect(cellOf(0.25, 0.3)).toEqual({ ours: 0.25, paper: 0.3 });
    expect(notRunCell('not run: x', 0.5)).toEqual({ notRun: 'not run: x', paper: 0.5 });
  });
});
