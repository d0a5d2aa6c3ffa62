import { describe, expect, it } from 'vitest';
import { auditCanaries } from './audit-canaries';
import { oneRunEpsilon } from './one-run-epsilon';
import { oneRunGdp } from './one-run-gdp';
import { seededUniform } from './seeded-uniform';

/** m canaries with seeded ½ inclusion and scores N(shift·in, 1) (Box–Muller on seededUniform). */
function gaussianCanaries(m: number, shift: number, seed: number): { scores: number[]; inclusion: number[] } {
  const u = seededUniform(seed);
  const inclusion = Array.from({ length: m }, () => (u() < 0.5 ? 1 : 0));
  const scores = inclusion.map((inc) => shift * inc + Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u()));
  return { scores, inclusion };
}

describe('auditCanaries', () => {
  it('uses the fixed plan k₊ = k₋ = ⌊m/5⌋ and feeds the same counts to both bounds', () => {
    const { scores, inclusion } = gaussianCanaries(1000, 2, 1);
    const audit = auditCanaries(scores, inclusion, { delta: 1e-5 });
    const { guesses } = audit;
    expect(guesses).toMatchObject({ canaries: 1000, positive: 200, negative: 200, guesses: 400, made: 400 });
    const counts = { canaries: 1000, guesses: 400, correct: guesses.correct };
    expect(audit.oneRun.epsilon).toBe(oneRunEpsilon(counts, { delta: 1e-5 }));
    expect(audit.gdp).toMatchObject(oneRunGdp(counts, { delta: 1e-5 }));
    expect(audit.gdp.epsilon).toBeGreaterThan(audit.oneRun.epsilon);
    expect(audit.oneRun.maxEpsilon).toBeCloseTo(4.863611162025084, 9); // 400 of 400 (reference of oneRunEpsilon)
    expect(audit.gdp.maxMu).toBeCloseTo(1.8728902697719008, 8);
  });

  it('null scores give 0: all equal exactly (no guess), and independent of inclusion positive at most at the 5 % rate', () => {
    const equal = auditCanaries(new Array(1000).fill(0.3), gaussianCanaries(1000, 0, 2).inclusion, { delta: 1e-5 });
    expect(equal.guesses.made).toBe(0);
    expect([equal.oneRun.epsilon, equal.gdp.mu, equal.gdp.epsilon]).toEqual([0, 0, 0]);
    let positiveGdp = 0;
    let positiveOneRun = 0;
    const runs = 200;
    for (let seed = 0; seed < runs; seed++) {
      const { scores, inclusion } = gaussianCanaries(500, 0, 100 + seed);
      const audit = auditCanaries(scores, inclusion, { delta: 1e-5 });
      if (audit.gdp.epsilon > 0) positiveGdp++;
      if (audit.oneRun.epsilon > 0) positiveOneRun++;
    }
    // A valid test is positive with probability ≤ β = 5 %: expected ≤ 10 of 200 (3 SE = 9.2 more).
    expect(positiveGdp).toBeLessThanOrEqual(19);
    expect(positiveOneRun).toBeLessThanOrEqual(19);
  });

  it('perfectly separated scores reach the largest bounds the plan allows', () => {
    const { inclusion } = gaussianCanaries(1000, 0, 3);
    const scores = inclusion.map((inc, i) => inc + i * 1e-6);
    const audit = auditCanaries(scores, inclusion, { delta: 1e-5 });
    expect(audit.guesses.correct).toBe(400);
    expect(audit.oneRun.epsilon).toBe(audit.oneRun.maxEpsilon);
    expect(audit.gdp.mu).toBe(audit.gdp.maxMu);
    expect(audit.gdp.epsilon).toBeGreaterThan(8); // 400 right of 1,000 refute ε = 8 (μ 1.87 > 1.67)
  });

  it('stays below the truth: scores of a μ = 1.5 Gaussian shift never prove μ > 1.5 beyond the 5 % rate', () => {
    let above = 0;
    for (let seed = 0; seed < 20; seed++) {
      const { scores, inclusion } = gaussianCanaries(1000, 1.5, 400 + seed);
      const audit = auditCanaries(scores, inclusion, { delta: 1e-5, guesses: { positive: 100, negative: 100 } });
      expect(audit.gdp.mu).toBeGreaterThan(0.3); // and it finds a real signal
      if (audit.gdp.mu > 1.5) above++;
    }
    expect(above).toBeLessThanOrEqual(3);
  });

  it('rejects a missing δ and a bad plan', () => {
    expect(() => auditCanaries([1, 2], [1, 0], {} as never)).toThrow('auditCanaries: delta must be a number in (0, 1), got undefined');
    expect(() => auditCanaries([1, 2], [1, 0], { delta: 1e-5, guesses: { positive: 2, negative: 2 } })).toThrow(
      'auditCanaries: guesses.positive + guesses.negative must be at most the 2 canaries, got 2 + 2',
    );
    expect(() => auditCanaries([1, 2], [1, 0], { delta: 1e-5, confidence: 2 })).toThrow('auditCanaries: confidence must be a number in (0, 1), got 2');
  });
});
