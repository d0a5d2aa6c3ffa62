import { describe, expect, it } from 'vitest';
import { logErfc } from '../accountant/log-space';
import { gaussianNoise } from './gaussian-noise';

/** The standard normal CDF Φ(x) = erfc(−x/√2)/2. */
const phi = (x: number) => Math.exp(logErfc(-x / Math.SQRT2)) / 2;

describe('gaussianNoise (ziggurat)', () => {
  const n = 1_000_000;
  const z = gaussianNoise(n, 1, 12345);

  it('has mean 0 and variance 1 (10⁶ draws: standard errors 0.001 and 0.0014)', () => {
    let sum = 0;
    let sq = 0;
    for (const v of z) {
      sum += v;
      sq += v * v;
    }
    expect(Math.abs(sum / n)).toBeLessThan(0.005);
    expect(Math.abs(sq / n - 1)).toBeLessThan(0.007);
  });

  it('follows Φ: Kolmogorov–Smirnov distance below the 0.1 % critical value 1.95/√n', () => {
    const sorted = Float64Array.from(z).sort();
    let d = 0;
    for (let i = 0; i < n; i += 97) {
      const f = phi(sorted[i]!);
      d = Math.max(d, Math.abs(f - i / n), Math.abs(f - (i + 1) / n));
    }
    expect(d).toBeLessThan(1.95 / Math.sqrt(n));
  });

  it('draws the tail beyond the base layer (|z| > 3.4426) and the far tail (|z| > 4) at their rates', () => {
    // Expected counts 2·(1 − Φ(r))·n: 576 and 63.3, Poisson standard deviations 24 and 8; 5 σ allowed.
    const count = (r: number) => z.reduce((c, v) => c + (Math.abs(v) > r ? 1 : 0), 0);
    expect(Math.abs(count(3.442619855899) - 2 * (1 - phi(3.442619855899)) * n)).toBeLessThan(120);
    expect(Math.abs(count(4) - 2 * (1 - phi(4)) * n)).toBeLessThan(40);
    expect(Math.abs(count(1) - 2 * (1 - phi(1)) * n)).toBeLessThan(5 * Math.sqrt(317_311 * 0.68));
  });

  it('is the same for the same seed, different for another, and scales with std', () => {
    expect(Array.from(gaussianNoise(1000, 1, 7))).toEqual(Array.from(gaussianNoise(1000, 1, 7)));
    expect(Array.from(gaussianNoise(1000, 1, 8))).not.toEqual(Array.from(gaussianNoise(1000, 1, 7)));
    const scaled = gaussianNoise(1000, 2.5, 7);
    gaussianNoise(1000, 1, 7).forEach((v, i) => expect(scaled[i]).toBeCloseTo(2.5 * v, 5));
  });
});
