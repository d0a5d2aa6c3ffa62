import { describe, expect, it } from 'vitest';
import { sensitivityShareBelow, sensitivityTopShare } from './sensitivity-statistics';

const values = [0.05, 0.2, 0.01, 0.5, 0.09]; // total 0.85

describe('sensitivityShareBelow', () => {
  it('is the fraction strictly below the threshold', () => {
    expect(sensitivityShareBelow(values, 0.1)).toBe(0.6); // .05, .01, .09
    expect(sensitivityShareBelow(values, 0.2)).toBe(0.6); // strict: 0.2 itself is not below
    expect(sensitivityShareBelow(values, 0.2000001)).toBe(0.8);
    expect(sensitivityShareBelow([[0.05], [0.5]], 0.1)).toBe(0.5);
  });

  it('rejects bad input', () => {
    expect(() => sensitivityShareBelow([], 0.1)).toThrow('sensitivityShareBelow: values must not be empty');
    expect(() => sensitivityShareBelow(values, NaN)).toThrow('sensitivityShareBelow: threshold must be a finite number, got NaN');
  });
});

describe('sensitivityTopShare', () => {
  it('takes the descending cumsum at index ⌊fraction·n⌋ over the total (PAST’s computation)', () => {
    // n = 5, fraction .2 → index 1 → the two largest: (.5 + .2) / .85.
    expect(sensitivityTopShare(values, 0.2)).toBeCloseTo(0.7 / 0.85, 15);
    expect(sensitivityTopShare(values, 0)).toBeCloseTo(0.5 / 0.85, 15);
    expect(sensitivityTopShare(values, 1)).toBeCloseTo(1, 15);
    // n = 10 equal values, fraction .2 → index 2 → 3 values → 0.3.
    expect(sensitivityTopShare(new Array(10).fill(1), 0.2)).toBeCloseTo(0.3, 15);
  });

  it('rejects bad input', () => {
    expect(() => sensitivityTopShare(values, 1.5)).toThrow('sensitivityTopShare: fraction must be a finite number in [0, 1], got 1.5');
    expect(() => sensitivityTopShare([0.1, -0.2], 0.5)).toThrow('sensitivityTopShare: values must be non-negative, got -0.2');
    expect(() => sensitivityTopShare([0, 0], 0.5)).toThrow('sensitivityTopShare: values must not all be 0 (the share is undefined), got 2 zeros');
    expect(() => sensitivityTopShare([NaN], 0.5)).toThrow('sensitivityTopShare: values[0] must not be NaN');
  });
});
