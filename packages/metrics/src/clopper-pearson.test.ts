import { describe, expect, it } from 'vitest';
import { clopperPearson, rateIntervals } from './clopper-pearson';

// Expected bounds from the exact definition evaluated with mpmath (betainc + 200-step bisection at 40
// digits); the k = 0 and k = n cases also have closed forms 1 − (α/2)^(1/n) and (α/2)^(1/n).
const known: Array<[k: number, n: number, confidence: number, lower: number, upper: number]> = [
  [0, 10, 0.95, 0, 0.30849710781876076],
  [1, 10, 0.95, 0.0025285785444617868, 0.44501611702819536],
  [5, 10, 0.95, 0.18708602844739857, 0.81291397155260143],
  [10, 10, 0.95, 0.69150289218123924, 1],
  [3, 7, 0.95, 0.098988278442507897, 0.81594843235991694],
  [0, 1, 0.95, 0, 0.975],
  [1, 1, 0.95, 0.025, 1],
  [2, 20, 0.99, 0.0052951494747718286, 0.38712525706752617],
  [1, 3, 0.9, 0.016952427508441495, 0.86464963782841624],
  [50, 1000, 0.95, 0.03733539760466177, 0.065390487915493645],
];

describe('clopperPearson', () => {
  it.each(known)('k=%i, n=%i at %f matches the exact bounds', (k, n, confidence, lower, upper) => {
    const interval = clopperPearson(k, n, { confidence });
    expect(interval.estimate).toBe(k / n);
    expect(interval.lower).toBeCloseTo(lower, 12);
    expect(interval.upper).toBeCloseTo(upper, 12);
    expect(interval.confidence).toBe(confidence);
  });

  it('n = 10, k = 0 gives the textbook upper bound 0.3084971 (95 %, two-sided)', () => {
    expect(clopperPearson(0, 10).upper).toBeCloseTo(0.3084971, 7);
  });

  it('is symmetric: [L, U](k, n) = [1 − U, 1 − L](n − k, n)', () => {
    const a = clopperPearson(3, 17);
    const b = clopperPearson(14, 17);
    expect(a.lower).toBeCloseTo(1 - b.upper, 13);
    expect(a.upper).toBeCloseTo(1 - b.lower, 13);
  });

  it('handles large n (bounds bracket the estimate, width ~ 4·sqrt(p(1−p)/n))', () => {
    const interval = clopperPearson(7, 100_000);
    expect(interval.lower).toBeGreaterThan(0);
    expect(interval.lower).toBeLessThan(7e-5);
    expect(interval.upper).toBeGreaterThan(7e-5);
    expect(interval.upper).toBeLessThan(2e-4);
    const wide = clopperPearson(500_000, 1_000_000);
    expect(wide.upper - wide.lower).toBeCloseTo(2 * 1.959964 * Math.sqrt(0.25 / 1e6), 5);
  });

  it('rejects bad input', () => {
    expect(() => clopperPearson(11, 10)).toThrow('clopperPearson: successes must be an integer in [0, 10], got 11');
    expect(() => clopperPearson(1.5, 10)).toThrow('clopperPearson: successes must be an integer in [0, 10], got 1.5');
    expect(() => clopperPearson(0, 0)).toThrow('clopperPearson: trials must be an integer in [1, 9007199254740991], got 0');
    expect(() => clopperPearson(1, 10, { confidence: 1 })).toThrow('clopperPearson: confidence must be a number in (0, 1), got 1');
  });
});

describe('rateIntervals', () => {
  it('gives Clopper–Pearson intervals for TPR and FPR of an operating point', () => {
    const { tpr, fpr } = rateIntervals({ truePositives: 5, numMembers: 10, falsePositives: 0, numNonMembers: 10 });
    expect(tpr.lower).toBeCloseTo(0.18708602844739857, 12);
    expect(fpr.upper).toBeCloseTo(0.30849710781876076, 12);
    expect(fpr.lower).toBe(0);
  });

  it('rejects bad counts', () => {
    expect(() => rateIntervals(null as never)).toThrow('rateIntervals: counts must be an object');
    expect(() => rateIntervals({ truePositives: 3, numMembers: 2, falsePositives: 0, numNonMembers: 1 })).toThrow(
      'rateIntervals: counts.truePositives must be an integer in [0, 2], got 3',
    );
  });
});
