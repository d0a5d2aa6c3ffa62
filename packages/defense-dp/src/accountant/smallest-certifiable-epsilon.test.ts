import { describe, expect, it } from 'vitest';
import { DEFAULT_ORDERS } from './accountant-options';
import { epsilonOf } from './epsilon-of';
import { rdpOf } from './rdp-of';
import { smallestCertifiableEpsilon } from './smallest-certifiable-epsilon';

describe('smallestCertifiableEpsilon', () => {
  it('is the conversion at zero RDP, minimised over the orders (hand-calculated values)', () => {
    // −(log 1e-5 + log 63)/62 + log(62/63) = 0.10286725121127971 (Opacus' get_privacy_spent formula
    // at rdp = 0, evaluated in Python); Opacus' grid ends at 63, which attains it.
    expect(smallestCertifiableEpsilon({ delta: 1e-5 })).toEqual({ epsilon: 0.10286725121127971, order: 63 });
    // Mironov's −log δ/(α − 1) at α = 63: 11.512925464970229 / 62.
    const classic = smallestCertifiableEpsilon({ delta: 1e-5, conversion: 'classic' });
    expect(classic.order).toBe(63);
    expect(classic.epsilon).toBeCloseTo(0.18569234620919722, 15);
    // Larger orders lower it: at α = 1024, −(log 1e-5 + log 1024)/1023 + log(1023/1024) = 0.003501409677071506.
    const wider = smallestCertifiableEpsilon({ delta: 1e-5, orders: [...DEFAULT_ORDERS, 128, 256, 512, 1024] });
    expect(wider.order).toBe(1024);
    expect(wider.epsilon).toBeCloseTo(0.003501409677071506, 15);
  });

  it('is where the accountant floors: ε(σ) approaches it from above, then the KL bound makes it 0', () => {
    const mechanism = { sampleRate: 0.05, steps: 60, delta: 1e-5 };
    const floor = smallestCertifiableEpsilon({ delta: 1e-5 }).epsilon;
    const near = epsilonOf({ ...mechanism, noiseMultiplier: 20480 });
    expect(near.order).toBe(63);
    expect(near.epsilon).toBeGreaterThan(floor);
    expect(near.epsilon - floor).toBeLessThan(1e-7);
    // At σ = 30 000, 60·RDP(1.1) = 9.36e-11 here (9.17e-11 by a 60-digit mpmath integral of the
    // definition; the reference's series, which this ports, gives 9.36e-11 too) is below
    // −log(1 − δ²) = 1e-10: δ ≥ √(1 − e^{−KL}) bounds the total variation, so ε = 0 holds (dp_accounting's shortcut).
    const rdp = rdpOf({ sampleRate: 0.05, steps: 60, noiseMultiplier: 30000, orders: [1.1] })[0]!;
    expect(rdp).toBeLessThan(-Math.log1p(-(1e-5 ** 2)));
    expect(rdp).toBeCloseTo(9.356534525098924e-11, 20);
    expect(epsilonOf({ ...mechanism, noiseMultiplier: 30000 }).epsilon).toBe(0);
  });

  it('is 0 when δ is so large that the conversion reaches 0 by itself, and ∞ without a finite order', () => {
    // At δ = 0.5, α = 63: −(log 0.5 + log 63)/62 + log(62/63) = −0.0719 < 0.
    expect(smallestCertifiableEpsilon({ delta: 0.5 }).epsilon).toBe(0);
    const none = smallestCertifiableEpsilon({ delta: 1e-5, orders: [Infinity] });
    expect(none.epsilon).toBe(Infinity);
    expect(none.order).toBeNaN();
  });

  it('rejects bad inputs naming the argument', () => {
    expect(() => smallestCertifiableEpsilon({ delta: 0 })).toThrow('smallestCertifiableEpsilon: delta must be a number in (0, 1), got 0');
    expect(() => smallestCertifiableEpsilon({ delta: 1e-5, orders: [1] })).toThrow(
      'smallestCertifiableEpsilon: orders[0] must be a number in (1, 100000] or Infinity, got 1',
    );
    expect(() => smallestCertifiableEpsilon({ delta: 1e-5, conversion: 'tight' as 'classic' })).toThrow(
      'smallestCertifiableEpsilon: conversion must be one of "improved", "classic", got "tight"',
    );
  });
});
