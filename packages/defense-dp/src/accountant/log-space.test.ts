import { describe, expect, it } from 'vitest';
import { logAdd, logErfc, logSub } from './log-space';

describe('log-space arithmetic', () => {
  it('adds and subtracts in log space, with −∞ as zero', () => {
    expect(logAdd(Math.log(2), Math.log(3))).toBeCloseTo(Math.log(5), 14);
    expect(logAdd(-Infinity, 1.5)).toBe(1.5);
    expect(logSub(Math.log(5), Math.log(3))).toBeCloseTo(Math.log(2), 14);
    expect(logSub(2, -Infinity)).toBe(2);
    expect(logSub(2, 2)).toBe(-Infinity);
    // exp(800) overflows: the reference returns logX.
    expect(logSub(800, 0)).toBe(800);
    expect(() => logSub(1, 2)).toThrow(RangeError);
  });

  it('log erfc matches tabulated erfc values, also far in the tail where erfc underflows', () => {
    // erfc values: Abramowitz & Stegun Table 7.1 (to 15 digits: erfc(0.5), erfc(1), erfc(2)) and the
    // asymptotic series erfc(x) ≈ e^{−x²}/(x√π)·(1 − 1/(2x²) + 3/(4x⁴) − 15/(8x⁶)) for x = 30, whose
    // truncation error (105/(16x⁸) ≈ 1e-11 relative) is far below the tolerance.
    expect(logErfc(0)).toBeCloseTo(0, 15);
    expect(logErfc(0.5)).toBeCloseTo(Math.log(0.479500122186953), 13);
    expect(logErfc(1)).toBeCloseTo(Math.log(0.157299207050285), 13);
    expect(logErfc(2)).toBeCloseTo(Math.log(0.00467773498104727), 12);
    expect(logErfc(-1)).toBeCloseTo(Math.log(2 - 0.157299207050285), 13);
    const x = 30;
    const series = 1 - 1 / (2 * x * x) + 3 / (4 * x ** 4) - 15 / (8 * x ** 6);
    expect(logErfc(x)).toBeCloseTo(-x * x - Math.log(x * Math.sqrt(Math.PI)) + Math.log(series), 9);
    expect(logErfc(-40)).toBeCloseTo(Math.LN2, 15);
    // Continuity across the switch between the series (|x| < 2) and the continued fraction.
    expect(logErfc(2 - 1e-12)).toBeCloseTo(logErfc(2), 10);
    expect(logErfc(-2 + 1e-12)).toBeCloseTo(logErfc(-2), 10);
  });
});
