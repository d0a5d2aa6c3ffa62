import { describe, expect, it } from 'vitest';
import { betaQuantile, logGamma, regularizedIncompleteBeta } from './incomplete-beta';

describe('regularizedIncompleteBeta', () => {
  it('matches known values', () => {
    // I_0.5(2, 3) = 11/16 exactly (binomial sum); the others from mpmath.betainc(a, b, 0, x, regularized=True).
    expect(regularizedIncompleteBeta(0.5, 2, 3)).toBeCloseTo(0.6875, 14);
    expect(regularizedIncompleteBeta(0.3, 0.5, 0.5)).toBeCloseTo(0.36901011956554538, 13);
    expect(regularizedIncompleteBeta(0.9, 10, 2)).toBeCloseTo(0.69735688020000009, 13);
    expect(regularizedIncompleteBeta(0.2, 1.001, 5)).toBeCloseTo(0.67194835602073655, 13);
    expect(regularizedIncompleteBeta(0.41, 200, 300)).toBeCloseTo(0.677628164772178948, 10);
    expect(regularizedIncompleteBeta(0, 2, 3)).toBe(0);
    expect(regularizedIncompleteBeta(1, 2, 3)).toBe(1);
  });

  it('satisfies the symmetry I_x(a, b) = 1 − I_{1−x}(b, a)', () => {
    for (const [x, a, b] of [
      [0.3, 4, 7],
      [0.7, 50, 20],
      [0.01, 0.3, 9],
    ] as const) {
      expect(regularizedIncompleteBeta(x, a, b) + regularizedIncompleteBeta(1 - x, b, a)).toBeCloseTo(1, 13);
    }
  });

  it('rejects bad input', () => {
    expect(() => regularizedIncompleteBeta(1.1, 1, 1)).toThrow('regularizedIncompleteBeta: x must be a finite number in [0, 1], got 1.1');
    expect(() => regularizedIncompleteBeta(0.5, 0, 1)).toThrow('regularizedIncompleteBeta: a must be a positive finite number, got 0');
    expect(() => regularizedIncompleteBeta(0.5, 1, NaN)).toThrow('regularizedIncompleteBeta: b must be a positive finite number, got NaN');
  });
});

describe('betaQuantile', () => {
  it('inverts the CDF, including closed forms', () => {
    // Beta(1, n) quantile: 1 − (1 − p)^(1/n); Beta(n, 1): p^(1/n).
    expect(betaQuantile(0.975, 1, 10)).toBeCloseTo(1 - 0.025 ** (1 / 10), 14);
    expect(betaQuantile(0.025, 10, 1)).toBeCloseTo(0.025 ** (1 / 10), 14);
    for (const [p, a, b] of [
      [0.3, 4, 7],
      [0.999, 50, 2000],
      [1e-6, 3, 3],
    ] as const) {
      expect(regularizedIncompleteBeta(betaQuantile(p, a, b), a, b)).toBeCloseTo(p, 12);
    }
    expect(betaQuantile(0, 2, 2)).toBe(0);
    expect(betaQuantile(1, 2, 2)).toBe(1);
  });

  it('rejects bad input', () => {
    expect(() => betaQuantile(-0.1, 1, 1)).toThrow('betaQuantile: p must be a finite number in [0, 1], got -0.1');
    expect(() => betaQuantile(0.5, -1, 1)).toThrow('betaQuantile: a must be a positive finite number, got -1');
  });
});

describe('logGamma', () => {
  it('matches ln((n−1)!) and ln Γ(½) = ½ ln π', () => {
    expect(logGamma(1)).toBeCloseTo(0, 14);
    expect(logGamma(5)).toBeCloseTo(Math.log(24), 13);
    expect(logGamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 14);
    // ln(170!) = mpmath.loggamma(171) = 706.573062245787.
    expect(logGamma(171)).toBeCloseTo(706.5730622457874, 9);
  });
});
