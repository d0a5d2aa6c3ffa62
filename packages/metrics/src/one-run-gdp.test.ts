import { describe, expect, it } from 'vitest';
import { gdpEpsilon, gdpMu } from './gaussian-dp';
import { MetricsError } from './metrics-error';
import { oneRunEpsilon } from './one-run-epsilon';
import { oneRunGdp, rejectsGdp } from './one-run-gdp';

// Reference values: `audit_rh_with_cap` of Mahloujifar, Melis & Chaudhuri (2024) as ported in
// google-deepmind/jax_privacy `auditing.py` (`_epsilon_one_run_fdp`: inverse blow-up
// Φ(Φ⁻¹(x) − μ), r capped at 1), searched over μ by doubling + 60 bisection steps, then ε at
// δ = 1e-5 by brentq — run with SciPy 1.17.1. [m, r, v, confidence, μ, ε]
const reference: Array<[number, number, number, number, number, number]> = [
  [1000, 800, 500, 0.95, 0.2010475533511211, 0.7296781430251631],
  [1000, 1000, 1000, 0.95, 2.3680739004017326, 12.334569480974299],
  [1000, 400, 400, 0.95, 1.8728902697719008, 9.223148151479434],
  [1000, 200, 200, 0.95, 1.5363980200497, 7.256822999454914],
  [1000, 100, 90, 0.95, 0.6025036074388626, 2.4564048930386884],
  [1000, 200, 150, 0.95, 0.33946631150994055, 1.2969160235051325],
  [1000, 400, 350, 0.95, 0.6938949610983187, 2.880978893379278],
  [1000, 500, 300, 0.95, 0.12616097582570102, 0.438814994909728],
  [1000, 100, 60, 0.95, 0.01526671977810756, 0.04352302756058855],
  [500, 200, 170, 0.99, 0.4978883469522925, 1.983694974017286],
];

describe('oneRunGdp', () => {
  it.each(reference)('m=%i r=%i v=%i at %f matches the reference recursion', (m, r, v, confidence, mu, epsilon) => {
    const bound = oneRunGdp({ canaries: m, guesses: r, correct: v }, { delta: 1e-5, confidence });
    expect(bound.mu).toBeCloseTo(mu, 8);
    expect(bound.epsilon).toBeCloseTo(epsilon, 7);
  });

  it('gives exactly μ = 0, ε = 0 when the counts reject nothing (never the last grid point of a search)', () => {
    for (const [r, v] of [
      [100, 50],
      [400, 180],
      [1000, 500],
      [400, 0],
      [0, 0],
    ] as const) {
      expect(oneRunGdp({ canaries: 1000, guesses: r, correct: v }, { delta: 1e-5 })).toEqual({ mu: 0, epsilon: 0 });
    }
  });

  it('brackets its own rejection boundary: μ is rejected just below the bound and not just above', () => {
    const { mu } = oneRunGdp({ canaries: 1000, guesses: 400, correct: 360 }, { delta: 1e-5 });
    expect(rejectsGdp(mu * (1 - 1e-6), 1000, 400, 360, 0.05)).toBe(true);
    expect(rejectsGdp(mu * (1 + 1e-6), 1000, 400, 360, 0.05)).toBe(false);
  });

  it('is tighter than the (ε, δ) bound of the same guesses, and with 400 of 1,000 all right it refutes ε = 8 (μ 1.67), with 200 it cannot', () => {
    for (const [r, v] of [
      [100, 90],
      [400, 350],
      [1000, 1000],
    ] as const) {
      const counts = { canaries: 1000, guesses: r, correct: v };
      expect(oneRunGdp(counts, { delta: 1e-5 }).epsilon).toBeGreaterThan(oneRunEpsilon(counts, { delta: 1e-5 }));
    }
    expect(oneRunGdp({ canaries: 1000, guesses: 400, correct: 400 }, { delta: 1e-5 }).mu).toBeGreaterThan(gdpMu(8, 1e-5));
    expect(oneRunGdp({ canaries: 1000, guesses: 200, correct: 200 }, { delta: 1e-5 }).epsilon).toBeLessThan(8);
  });

  it('grows with the correct guesses; its ε is gdpEpsilon of its μ', () => {
    const mus = [220, 260, 300, 340, 380].map((v) => oneRunGdp({ canaries: 1000, guesses: 400, correct: v }, { delta: 1e-5 }));
    for (let i = 1; i < mus.length; i++) expect(mus[i]!.mu).toBeGreaterThan(mus[i - 1]!.mu);
    for (const b of mus) expect(b.epsilon).toBe(gdpEpsilon(b.mu, 1e-5));
  });

  it('rejects bad counts and a missing δ', () => {
    expect(() => oneRunGdp({ canaries: 10, guesses: 5, correct: 6 }, { delta: 1e-5 })).toThrow('oneRunGdp: counts.correct must be an integer in [0, 5]');
    expect(() => oneRunGdp({ canaries: 10, guesses: 5, correct: 5 }, {} as never)).toThrow('oneRunGdp: delta must be a number in (0, 1), got undefined');
    expect(() => oneRunGdp({ canaries: 10, guesses: 5, correct: 5 }, { delta: 1e-5, confidence: 0 })).toThrow(MetricsError);
  });
});
