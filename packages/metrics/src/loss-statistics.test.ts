import { describe, expect, it } from 'vitest';
import { lossGap } from './loss-gap';
import { lossVariance } from './loss-variance';

describe('lossGap', () => {
  it('is |mean member loss − mean non-member loss| (hand-computed)', () => {
    // means 0.2 and 2 → 1.8; symmetric in its arguments' roles.
    expect(lossGap([0.1, 0.3], [1, 2, 3])).toBeCloseTo(1.8, 15);
    expect(lossGap(new Float32Array([1, 2, 3]), [0.1, 0.3])).toBeCloseTo(1.8, 7);
    expect(lossGap([2, 2], [2])).toBe(0);
  });

  it('rejects bad input', () => {
    expect(() => lossGap([], [1])).toThrow('lossGap: memberLosses must not be empty, got an empty array');
    expect(() => lossGap([1], [NaN])).toThrow('lossGap: nonMemberLosses[0] must not be NaN');
    expect(() => lossGap([Infinity], [1])).toThrow('lossGap: memberLosses[0] must be finite, got Infinity');
  });
});

describe('lossVariance', () => {
  it('is the population variance (ddof 0, np.var)', () => {
    // [1, 2, 3, 4]: mean 2.5, squared deviations 2.25 + .25 + .25 + 2.25 = 5, / 4 = 1.25 (ddof 1 would be 5/3).
    expect(lossVariance([1, 2, 3, 4])).toBe(1.25);
    expect(lossVariance([7])).toBe(0);
    // Two-pass form keeps precision for a large offset: [1e9 + 1, 1e9 + 2, 1e9 + 3] → 2/3.
    expect(lossVariance([1e9 + 1, 1e9 + 2, 1e9 + 3])).toBeCloseTo(2 / 3, 6);
  });

  it('rejects bad input', () => {
    expect(() => lossVariance([])).toThrow('lossVariance: losses must not be empty');
    expect(() => lossVariance([1, -Infinity])).toThrow('lossVariance: losses[1] must be finite, got -Infinity');
    expect(() => lossVariance(3 as never)).toThrow('lossVariance: losses must be an array of numbers, got 3');
  });
});
