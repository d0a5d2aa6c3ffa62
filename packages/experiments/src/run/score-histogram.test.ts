import { seededRandom } from '@mia/core';
import { describe, expect, it } from 'vitest';
import { lossHistogram, scoreHistogram } from './score-histogram';

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

describe('lossHistogram', () => {
  it('bins both samples on [0, 99th percentile] with the numbers of the former sharedHistogram', () => {
    // Computed with the former run/histogram.ts sharedHistogram (results.json's lossHistogram) on these samples.
    const random = seededRandom(5);
    const members = Array.from({ length: 200 }, () => Math.abs(random.normal()) * 0.7);
    const nonMembers = Array.from({ length: 150 }, () => Math.abs(random.normal()) * 1.3);
    const h = lossHistogram(members, nonMembers);
    expect(h.edges).toEqual([
      0, 0.12539733892387456, 0.2507946778477491, 0.3761920167716236, 0.5015893556954982, 0.6269866946193727, 0.7523840335432472, 0.8777813724671218,
      1.0031787113909965, 1.1285760503148707, 1.2539733892387455, 1.37937072816262, 1.5047680670864945, 1.6301654060103692, 1.7555627449342437,
      1.8809600838581182, 2.006357422781993, 2.131754761705867, 2.2571521006297415, 2.382549439553616, 2.507946778477491, 2.633344117401365, 2.75874145632524,
      2.8841387952491147, 3.009536134172989, 3.1349334730968637, 3.2603308120207384, 3.385728150944613, 3.5111254898684874, 3.6365228287923617,
      3.7619201677162364,
    ]);
    expect(h.members).toEqual([25, 26, 26, 31, 22, 17, 13, 14, 5, 4, 6, 4, 3, 0, 2, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(h.nonMembers).toEqual([13, 9, 8, 7, 8, 9, 15, 8, 11, 9, 6, 8, 6, 5, 1, 0, 6, 5, 2, 3, 4, 0, 0, 1, 0, 1, 0, 0, 0, 5]);
  });

  it('keeps the upper edge at 1e-6 or more, and spans [0, 1] without losses', () => {
    expect(lossHistogram([0, 0], [0], 3)).toEqual({ edges: [0, 3.333333333333333e-7, 6.666666666666666e-7, 1e-6], members: [2, 0, 0], nonMembers: [1, 0, 0] });
    expect(lossHistogram([], [], 2)).toEqual({ edges: [0, 0.5, 1], members: [0, 0], nonMembers: [0, 0] });
  });
});
