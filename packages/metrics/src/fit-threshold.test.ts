import { describe, expect, it } from 'vitest';
import { fitThreshold } from './fit-threshold';
import { seededUniform } from './seeded-uniform';
import { referenceThreSetting } from './test-utils/reference-thresholds';
describe('fitThreshold (Song & Mittal thre_setting)', () => {
  it('reproduces a hand-computed fit', () => {
    // tr = [.9, .4, .7], te = [.3, .7, .5, .1]; candidates in order .9, .4, .7, .3, .7, .5, .1:
    //   .9: ½(1/3 + 4/4) = .667   .4: ½(3/3 + 2/4) = .75   .7: ½(2/3 + 3/4) = .708
    //   .3: ½(1 + 1/4) = .625     .5: ½(2/3 + 2/4) = .583  .1: ½(1 + 0) = .5
    // → threshold .4, accuracy .75 (the numpy reference loop gives (0.4, 0.75) too).
    expect(fitThreshold([0.9, 0.4, 0.7], [0.3, 0.7, 0.5, 0.1])).toEqual({ threshold: 0.4, accuracy: 0.75 });
  });

  it('keeps the first maximiser in candidate order on ties (not the smallest or largest)', () => {
    // tr = [1, 3], te = [2, 0]: acc(1) = ½(2/2 + 1/2) = .75 and acc(3) = ½(1/2 + 2/2) = .75 tie;
    // acc(2) = acc(0) = .5. Candidate order decides: 1 first → 1; with tr = [3, 1] → 3 (numpy agrees).
    expect(fitThreshold([1, 3], [2, 0])).toEqual({ threshold: 1, accuracy: 0.75 });
    expect(fitThreshold([3, 1], [2, 0])).toEqual({ threshold: 3, accuracy: 0.75 });
  });

  it('uses balanced accuracy, unlike SEL’s raw count', () => {
    // tr = [5, 4, 3, 2], te = [1, 3.5]: acc(5) = .625, acc(4) = ½(2/4 + 2/2) = .75, acc(3) = .625,
    // acc(2) = ½(1 + 1/2) = .75 (tie, later), acc(1) = .5, acc(3.5) = .5 → 4 (SEL picks 2).
    expect(fitThreshold([5, 4, 3, 2], [1, 3.5])).toEqual({ threshold: 4, accuracy: 0.75 });
  });

  it('equals the O(n²) reference bit for bit on seeded random data with many ties', () => {
    const uniform = seededUniform(21);
    for (let trial = 0; trial < 40; trial++) {
      const levels = 1 + Math.floor(uniform() * 12);
      const draw = (): number => Math.floor(uniform() * levels) / levels - 0.3;
      const tr = Array.from({ length: 1 + Math.floor(uniform() * 60) }, draw);
      const te = Array.from({ length: 1 + Math.floor(uniform() * 60) }, draw);
      expect(fitThreshold(tr, te)).toEqual(referenceThreSetting(tr, te));
    }
  });

  it('rejects bad input', () => {
    expect(() => fitThreshold([], [1])).toThrow('fitThreshold: trScores must not be empty, got an empty array');
    expect(() => fitThreshold([1], [])).toThrow('fitThreshold: teScores must not be empty, got an empty array');
    expect(() => fitThreshold([1, NaN], [1])).toThrow('fitThreshold: trScores[1] must not be NaN, got NaN');
    expect(() => fitThreshold([1], undefined as never)).toThrow('fitThreshold: teScores must be an array of numbers, got undefined');
  });
});
