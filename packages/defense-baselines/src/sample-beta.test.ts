import { seededRandom, type Random } from '@mia/core';
import { describe, expect, it } from 'vitest';
import { sampleSymmetricBeta } from './sample-beta';

/** A `random` whose normal draws are all −10 (every Marsaglia–Tsang proposal is rejected), and that refuses a 5001st draw, so an unbounded loop fails here instead of hanging. */
function brokenRandom(): Random {
  let draws = 0;
  const count = () => {
    if (++draws > 5000) throw new Error('the fake random was drawn more than 5000 times');
  };
  return Object.assign(seededRandom(1), {
    next: () => (count(), 0.5),
    normal: () => (count(), -10),
  });
}

describe('sampleSymmetricBeta', () => {
  it('draws in [0, 1] around ½ from a seeded stream, the same for the same seed', () => {
    const draw = (seed: number) => {
      const random = seededRandom(seed);
      return Array.from({ length: 2000 }, () => sampleSymmetricBeta(0.4, random));
    };
    const values = draw(3);
    expect(values.every((v) => v >= 0 && v <= 1)).toBe(true);
    // Beta(0.4, 0.4) has mean ½ and variance 1/(4·(2·0.4 + 1)) = 0.1389.
    const mean = values.reduce((s, v) => s + v, 0) / values.length;
    const variance = values.reduce((s, v) => s + (v - mean) ** 2, 0) / values.length;
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.03);
    expect(Math.abs(variance - 0.1389)).toBeLessThan(0.015);
    expect(draw(3)).toEqual(values);
  });

  it('stops after 1000 rejected proposals, and refuses a shape that is not a positive number', () => {
    expect(() => sampleSymmetricBeta(2, brokenRandom())).toThrow(
      'sampleSymmetricBeta: 1000 Gamma(2) proposals in a row were rejected (each is accepted with probability > 0.95): random must be a uniform stream',
    );
    expect(() => sampleSymmetricBeta(Number.NaN, brokenRandom())).toThrow('sampleSymmetricBeta: alpha must be a finite number > 0, got NaN');
    expect(() => sampleSymmetricBeta(-Infinity, brokenRandom())).toThrow('sampleSymmetricBeta: alpha must be a finite number > 0, got -Infinity');
  });
});
