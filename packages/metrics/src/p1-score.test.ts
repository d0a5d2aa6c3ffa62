import { describe, expect, it } from 'vitest';
import { p1Score } from './p1-score';

describe('p1Score', () => {
  it('is the harmonic mean of accuracy and 1 − advantage (hand-computed)', () => {
    // 2·0.8·0.8 / (0.8 + 0.8) = 0.8.
    expect(p1Score(0.8, 0.2)).toBeCloseTo(0.8, 15);
    // 2·0.9·0.5 / (0.9 + 0.5) = 0.9 / 1.4 = 9/14.
    expect(p1Score(0.9, 0.5)).toBeCloseTo(9 / 14, 15);
    // No clamping: Adv = −1 → 1 − Adv = 2, P1 = 2·1·2 / 3 = 4/3.
    expect(p1Score(1, -1)).toBeCloseTo(4 / 3, 15);
    // Acc = 0 and Adv = 1: 0/0 is defined as 0.
    expect(p1Score(0, 1)).toBe(0);
  });

  it('uses the highest advantage of a list of attacks (PROTOCOL A31)', () => {
    expect(p1Score(0.9, [0.1, 0.5, 0.3])).toBeCloseTo(9 / 14, 15);
  });

  it('rejects bad input', () => {
    expect(() => p1Score(1.2, 0.1)).toThrow('p1Score: testAccuracy must be a finite number in [0, 1], got 1.2');
    expect(() => p1Score(0.9, 1.5)).toThrow('p1Score: advantage must be a finite number in [-1, 1], got 1.5');
    expect(() => p1Score(0.9, NaN)).toThrow('p1Score: advantage must be a finite number in [-1, 1], got NaN');
    expect(() => p1Score(0.9, [0.1, NaN])).toThrow('p1Score: advantage[1] must be a finite number in [-1, 1], got NaN');
    expect(() => p1Score(0.9, [])).toThrow('p1Score: advantage must be a number in [-1, 1] or a non-empty array of them, got Array(0)');
  });
});
