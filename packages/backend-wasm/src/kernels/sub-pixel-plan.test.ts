import { describe, expect, it } from 'vitest';
import { planAxisPhases } from './sub-pixel-plan';

describe('planAxisPhases', () => {
  it('stride 1 is one phase with the reversed filter (known answer)', () => {
    // H = 5, k = 3, pad 1 ("same"): dx = correlation of dy with taps [2,1,0], padding 1 each side.
    expect(planAxisPhases(5, 5, 3, 1, 1)).toEqual([{ offset: 0, count: 5, taps: [2, 1, 0], dyBegin: 0, dySize: 5, padBefore: 1, padAfter: 1 }]);
  });

  it('splits a 3-tap stride-2 "same" axis into 2-tap and 1-tap phases (known answer)', () => {
    // H = 32, Ho = 16, pad top 0: even rows i = 2t get taps 0 (dy[t]) and 2 (dy[t-1]); odd rows tap 1 (dy[t]).
    expect(planAxisPhases(32, 16, 3, 2, 0)).toEqual([
      { offset: 0, count: 16, taps: [2, 0], dyBegin: 0, dySize: 16, padBefore: 1, padAfter: 0 },
      { offset: 1, count: 16, taps: [1], dyBegin: 0, dySize: 16, padBefore: 0, padAfter: 0 },
    ]);
  });

  it('leaves the phases a 1×1 stride-2 filter never reaches empty', () => {
    const [even, odd] = planAxisPhases(7, 4, 1, 2, 0);
    expect(even).toMatchObject({ offset: 0, count: 4, taps: [0], dySize: 4 });
    expect(odd).toMatchObject({ offset: 1, count: 3, taps: [], dySize: 0 });
  });
});
