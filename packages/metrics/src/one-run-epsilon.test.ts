import { describe, expect, it } from 'vitest';
import { MetricsError } from './metrics-error';
import { oneRunEpsilon, oneRunPValue } from './one-run-epsilon';

// Reference values: the authors' algorithm (Steinke, Nasr & Jagielski 2023, appendix code
// `p_value_DP_audit` / `get_eps_audit`, with scipy.stats.binom and 60 bisection steps instead of 30)
// run with SciPy 1.17.1. [m, r, v, δ, confidence, ε]
const reference: Array<[number, number, number, number, number, number]> = [
  [1000, 1000, 1000, 0, 0.95, 5.809068338546592],
  [100, 100, 100, 0, 0.95, 3.4929654311522937],
  [10000, 10000, 10000, 0, 0.95, 8.11300188125838],
  [1000, 1000, 1000, 1e-5, 0.95, 5.782283135394014],
  [10000, 10000, 10000, 1e-5, 0.95, 7.834303247177846],
  [1000, 400, 400, 1e-5, 0.95, 4.863611162025084],
  [1000, 100, 90, 1e-5, 0.95, 1.6261434806957262],
  [1000, 200, 150, 1e-5, 0.95, 0.8199729121699937],
  [1000, 500, 300, 0, 0.95, 0.25168496618252967],
  [1000, 100, 60, 1e-5, 0.95, 0.04954866064484633],
  [500, 200, 170, 1e-5, 0.99, 1.2734429848617188],
];

describe('oneRunEpsilon', () => {
  it.each(reference)('m=%i r=%i v=%i δ=%f at %f matches the paper’s algorithm', (m, r, v, delta, confidence, epsilon) => {
    expect(oneRunEpsilon({ canaries: m, guesses: r, correct: v }, { delta, confidence })).toBeCloseTo(epsilon, 9);
  });

  it('the p-value matches scipy: P[Bin(100, σ(1)) ≥ 90] and that plus 2mδ·α', () => {
    expect(oneRunPValue(1000, 100, 90, 1, 0)).toBeCloseTo(2.7358128007661584e-5, 15);
    expect(oneRunPValue(1000, 100, 90, 1, 1e-5)).toBeCloseTo(0.0008412885614385309, 14);
  });

  it('with every guess right and δ = 0 it is the largest bound m canaries allow, logit(β^{1/m}) (the paper’s maximum for m)', () => {
    for (const m of [10, 100, 1000, 10000]) {
      const q = 0.05 ** (1 / m);
      expect(oneRunEpsilon({ canaries: m, guesses: m, correct: m })).toBeCloseTo(Math.log(q / (1 - q)), 8);
    }
  });

  it('gives exactly 0 at or below chance and when nothing is guessed', () => {
    expect(oneRunEpsilon({ canaries: 1000, guesses: 400, correct: 200 }, { delta: 1e-5 })).toBe(0);
    expect(oneRunEpsilon({ canaries: 1000, guesses: 400, correct: 0 }, { delta: 1e-5 })).toBe(0);
    expect(oneRunEpsilon({ canaries: 1000, guesses: 0, correct: 0 })).toBe(0);
  });

  it('grows with the correct guesses and shrinks with δ and with the confidence', () => {
    const at = (v: number, delta = 1e-5, confidence = 0.95) => oneRunEpsilon({ canaries: 1000, guesses: 300, correct: v }, { delta, confidence });
    const series = [200, 220, 240, 260, 280, 300].map((v) => at(v));
    for (let i = 1; i < series.length; i++) expect(series[i]!).toBeGreaterThan(series[i - 1]!);
    expect(at(280, 1e-3)).toBeLessThan(at(280, 1e-5));
    expect(at(280, 1e-5, 0.99)).toBeLessThan(at(280, 1e-5, 0.95));
  });

  it('rejects counts that cannot happen and bad options, naming the argument', () => {
    expect(() => oneRunEpsilon({ canaries: 10, guesses: 11, correct: 1 })).toThrow(
      'oneRunEpsilon: counts.guesses must be an integer in [0, 10] (at most one guess per canary), got 11',
    );
    expect(() => oneRunEpsilon({ canaries: 10, guesses: 5, correct: 6 })).toThrow('oneRunEpsilon: counts.correct must be an integer in [0, 5]');
    expect(() => oneRunEpsilon({ canaries: 0, guesses: 0, correct: 0 })).toThrow('oneRunEpsilon: counts.canaries must be an integer ≥ 1, got 0');
    expect(() => oneRunEpsilon({ canaries: 10, guesses: 2.5, correct: 1 })).toThrow(MetricsError);
    expect(() => oneRunEpsilon({ canaries: 10, guesses: 5, correct: 5 }, { delta: 1 })).toThrow('oneRunEpsilon: delta must be a number in [0, 1), got 1');
    expect(() => oneRunEpsilon({ canaries: 10, guesses: 5, correct: 5 }, { confidence: 1 })).toThrow(
      'oneRunEpsilon: confidence must be a number in (0, 1), got 1',
    );
    expect(() => oneRunEpsilon(null as never)).toThrow('oneRunEpsilon: counts must be an object {canaries, guesses, correct}, got null');
  });
});
