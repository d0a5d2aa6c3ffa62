import { describe, expect, it } from 'vitest';
import { scoreHistogram } from './score-histogram';

describe('scoreHistogram', () => {
  it('bins both samples on shared edges from the 0.5th to the 99.5th percentile, extremes in the end bins', () => {
    // 0 … 9 together: with 10 values the 0.5th and 99.5th percentiles are the entries at floor(0.005·9) = 0
    // and floor(0.995·9) = 8, so the edges run 0, 2, 4, 6, 8 and 9 (like ±Infinity) joins the last bin.
    const h = scoreHistogram([0, 1, 2, 3, 9, Infinity], [4, 5, 6, 7, 8, -Infinity, NaN], 4);
    expect(h.edges).toEqual([0, 2, 4, 6, 8]);
    expect(h.members).toEqual([2, 2, 0, 2]);
    expect(h.nonMembers).toEqual([1, 0, 2, 3]);
  });

  it('spans the value ± 0.5 when every score is equal or none is finite', () => {
    expect(scoreHistogram([3, 3], [3], 2)).toEqual({ edges: [2.5, 3, 3.5], members: [0, 2], nonMembers: [0, 1] });
    expect(scoreHistogram([Infinity], [NaN], 2)).toEqual({ edges: [-0.5, 0, 0.5], members: [0, 1], nonMembers: [0, 0] });
  });
});
