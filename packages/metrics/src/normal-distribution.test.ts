import { describe, expect, it } from 'vitest';
import { MetricsError } from './metrics-error';
import { normalCdf, normalLogCdf, normalQuantile } from './normal-distribution';

// Reference values: scipy.stats.norm.cdf / logcdf / ppf (SciPy 1.17.1).
const cdfs: Array<[x: number, cdf: number, logCdf: number]> = [
  [-30, 4.906713927147908e-198, -454.32124395634327],
  [-8, 6.22096057427174e-16, -35.01343715991456],
  [-3, 0.0013498980316300933, -6.60772622151035],
  [-1.5, 0.06680720126885807, -2.7059444008238898],
  [-0.5, 0.3085375387259869, -1.1759117615936188],
  [0, 0.5, -0.6931471805599453],
  [0.3, 0.6179114221889526, -0.4814101615884813],
  [1, 0.8413447460685429, -0.1727537790234499],
  [2, 0.9772498680518208, -0.023012909328963476],
  [5, 0.9999997133484281, -2.8665161296376294e-7],
  [9, 1, -1.1285884059538324e-19],
];
const quantiles: Array<[p: number, x: number]> = [
  [1e-300, -37.0470962993612],
  [1e-20, -9.262340089798409],
  [1e-5, -4.264890793922825],
  [0.01, -2.3263478740408408],
  [0.3, -0.5244005127080409],
  [0.5, 0],
  [0.7, 0.5244005127080407],
  [0.99, 2.3263478740408408],
];
const relative = (a: number, b: number) => Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);

describe('normalCdf / normalLogCdf', () => {
  it.each(cdfs)('Φ(%f) and ln Φ match SciPy to 1e-13 relative, also in the far lower tail', (x, cdf, logCdf) => {
    expect(relative(normalCdf(x), cdf)).toBeLessThan(1e-13);
    expect(relative(normalLogCdf(x), logCdf)).toBeLessThan(1e-13);
  });

  it('keeps ln Φ finite where Φ underflows, and maps ±Infinity to the limits', () => {
    expect(normalCdf(-40)).toBe(0);
    expect(relative(normalLogCdf(-40), -804.6084420137539)).toBeLessThan(1e-13); // SciPy logcdf(-40)
    expect(normalCdf(-Infinity)).toBe(0);
    expect(normalCdf(Infinity)).toBe(1);
    expect(normalLogCdf(-Infinity)).toBe(-Infinity);
  });

  it('rejects NaN and non-numbers naming the function', () => {
    expect(() => normalCdf(NaN)).toThrow(MetricsError);
    expect(() => normalCdf(NaN)).toThrow('normalCdf: x must be a number, got NaN');
    expect(() => normalLogCdf('1' as unknown as number)).toThrow('normalLogCdf: x must be a number, got "1"');
  });
});

describe('normalQuantile', () => {
  it.each(quantiles)('Φ⁻¹(%f) matches SciPy to 1e-13 (absolute below |x| = 1, relative above)', (p, x) => {
    expect(Math.abs(normalQuantile(p) - x)).toBeLessThan(1e-13 * Math.max(1, Math.abs(x)));
  });

  it('inverts normalCdf over the whole range and maps 0 and 1 to ∓Infinity', () => {
    for (const p of [1e-250, 3e-17, 1e-9, 0.02, 0.45, 0.55, 0.9, 0.999999]) expect(relative(normalCdf(normalQuantile(p)), p)).toBeLessThan(1e-12);
    expect(normalQuantile(0)).toBe(-Infinity);
    expect(normalQuantile(1)).toBe(Infinity);
  });

  it('rejects probabilities outside [0, 1]', () => {
    expect(() => normalQuantile(1.5)).toThrow('normalQuantile: p must be a number in [0, 1], got 1.5');
    expect(() => normalQuantile(NaN)).toThrow(MetricsError);
  });
});
