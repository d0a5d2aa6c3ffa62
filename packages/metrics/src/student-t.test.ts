import { describe, expect, it } from 'vitest';
import { MetricsError } from './metrics-error';
import { studentTCdf, studentTQuantile } from './student-t';

describe('studentTQuantile', () => {
  // Known answers: the standard t table (e.g. NIST/SEMATECH e-Handbook, Table 1.3.6.7.2).
  it.each([
    [0.975, 1, 12.706],
    [0.975, 2, 4.303],
    [0.95, 2, 2.92],
    [0.975, 10, 2.228],
    [0.95, 30, 1.697],
    [0.99, 5, 3.365],
  ])('t(%f, df = %d) = %f', (p, df, expected) => {
    expect(studentTQuantile(p, df)).toBeCloseTo(expected, 3);
    expect(studentTQuantile(1 - p, df)).toBeCloseTo(-expected, 3);
  });

  it('is the normal quantile at df = Infinity and approaches it for large df', () => {
    expect(studentTQuantile(0.975, Infinity)).toBeCloseTo(1.959964, 5);
    expect(studentTQuantile(0.97725, Infinity)).toBeCloseTo(2.0, 3);
    expect(studentTQuantile(0.975, 1e6)).toBeCloseTo(1.96, 3);
  });

  it('inverts the CDF, also for a non-integer df', () => {
    for (const df of [1.5, 2, 3.7, 12, 200]) {
      for (const p of [0.6, 0.9, 0.975, 0.999]) expect(studentTCdf(studentTQuantile(p, df), df)).toBeCloseTo(p, 9);
    }
  });

  it('rejects bad arguments', () => {
    expect(() => studentTQuantile(1, 3)).toThrow(MetricsError);
    expect(() => studentTQuantile(0.9, 0)).toThrow(/df must be a number > 0.*got 0/);
    expect(() => studentTCdf(Number.NaN, 3)).toThrow(/t must be a number/);
  });
});

describe('studentTCdf', () => {
  it('matches known values and symmetry', () => {
    // df = 1 is the Cauchy distribution: F(t) = ½ + atan(t)/π.
    for (const t of [-3, -0.5, 0, 1, 4]) expect(studentTCdf(t, 1)).toBeCloseTo(0.5 + Math.atan(t) / Math.PI, 10);
    // df = 2 has the closed form F(t) = ½ + t / (2 sqrt(2 + t²)).
    for (const t of [-2, 0.3, 2.3]) expect(studentTCdf(t, 2)).toBeCloseTo(0.5 + t / (2 * Math.sqrt(2 + t * t)), 10);
    expect(studentTCdf(Infinity, 4)).toBe(1);
    expect(studentTCdf(2, Infinity)).toBeCloseTo(0.97725, 5);
  });
});
