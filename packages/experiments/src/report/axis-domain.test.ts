import { describe, expect, it } from 'vitest';
import { uncertaintyDomain } from './axis-domain';

describe('uncertaintyDomain', () => {
  it("widens the newcomer's 0.6325–0.6365 accuracy axis to 5 points centred on the points", () => {
    // 63.6 % and 63.3 % with SEs of 0.5 points: ± 2 SE spans 62.3–64.6 %, narrower than 5 points.
    const [low, high] = uncertaintyDomain([
      { value: 0.636, se: 0.005 },
      { value: 0.633, se: 0.005 },
    ]);
    expect(high - low).toBeCloseTo(0.05, 12);
    expect((low + high) / 2).toBeCloseTo((0.623 + 0.646) / 2, 12);
  });

  it('covers every point ± 2 SE, plus 5 % of margin on each side, when that is wider than the minimum span', () => {
    const [low, high] = uncertaintyDomain([
      { value: 0.5, se: 0.02 },
      { value: 0.6, se: 0.03 },
    ]);
    // ± 2 SE: 0.46–0.66, 0.2 wide; with the margins 0.22 wide around 0.56.
    expect(low).toBeCloseTo(0.45, 12);
    expect(high).toBeCloseTo(0.67, 12);
  });

  it('shifts a window that sticks out of the bounds instead of shrinking it; missing SEs count as 0', () => {
    expect(uncertaintyDomain([{ value: 1 }, { value: 0.99, se: Number.NaN }])).toEqual([0.95, 1]);
    expect(uncertaintyDomain([{ value: -0.99 }], { bounds: [-1, 1], minSpan: 0.1 })).toEqual([-1, -0.9]);
    expect(uncertaintyDomain([])).toEqual([0, 1]);
    expect(uncertaintyDomain([{ value: 0.5 }], { minSpan: 3 })).toEqual([0, 1]); // never wider than the bounds
  });
});
