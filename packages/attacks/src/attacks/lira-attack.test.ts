import { InvalidArgumentError } from '@mia/core';
import { describe, expect, it } from 'vitest';
import type { ModelSignals, ReferenceSignals } from '../signals/model-signals';
import { signalsFromPhi } from '../test-utils/setup';
import { liraAttack } from './lira-attack';

/** Signals with one φ row per query (the plain φ is the first query's). */
function queried(...rows: number[][]): ModelSignals {
  return { ...signalsFromPhi(rows[0]!), queries: rows.map((row) => signalsFromPhi(row)) };
}

describe('LiRA with several queries and fixed variance (Carlini plot.py: one σ over everything)', () => {
  // Two examples, two queries, complementary reference pairs: m0, m1 train on example 0, m2, m3 on example 1.
  //   example 0: IN  q0 {−1, 1}  q1 {−3, 3}  (medians 0, 0);  OUT q0 {−4, −2}  q1 {−6, 0}  (medians −3, −3)
  //   example 1: IN  q0 {1, −1}  q1 {3, −3}  (medians 0, 0);  OUT q0 {−2, 0}   q1 {−1, −1} (medians −1, −1)
  // The queries have deliberately different spreads: σ of the IN signals is 1 for q0 and 3 for q1.
  const references: ReferenceSignals = {
    models: [queried([-1, -2], [-3, -1]), queried([1, 0], [3, -1]), queried([-4, 1], [-6, 3]), queried([-2, -1], [0, -3])],
    keep: [
      [1, 0],
      [1, 0],
      [0, 1],
      [0, 1],
    ],
  };
  const target = queried([1, 0], [2, -1]);

  it('online: σ² = mean square of all 8 IN signals = 40/8 = 5, LLRs averaged over queries', async () => {
    // With σ_in = σ_out = σ, log N(x; μ_in, σ) − log N(x; μ_out, σ) = ((x − μ_out)² − (x − μ_in)²)/(2σ²).
    // Example 0: q0 x = 1: (4² − 1²) = 15; q1 x = 2: (5² − 2²) = 21 → ½(15 + 21)/10 = 1.8.
    // Example 1: q0 x = 0: (1² − 0²) = 1; q1 x = −1: (0² − 1²) = −1 → 0.
    // (Pooling σ per query, σ² = 1 and 9, would give ½(15/2 + 21/18) ≈ 4.33 for example 0.)
    const a = liraAttack();
    await a.prepare(references);
    const scores = a.score(target);
    expect(scores[0]).toBeCloseTo(1.8, 9);
    expect(scores[1]).toBeCloseTo(0, 9);
  });

  it('offline: σ² = variance of all 8 OUT signals around their mean −2 = 30/8 = 3.75', async () => {
    // −log N(x; μ, σ) = (x − μ)²/(2σ²) + ln σ + ½ ln 2π, averaged over the two queries.
    // Example 0: (1 + 3)² = 16, (2 + 3)² = 25 → 41/15 + ½ ln 3.75 + ½ ln 2π.
    // Example 1: (0 + 1)² = 1, (−1 + 1)² = 0 → 1/15 + ½ ln 3.75 + ½ ln 2π.
    const a = liraAttack({ mode: 'offline' });
    await a.prepare(references);
    const scores = a.score(target);
    const constant = 0.5 * Math.log(3.75) + 0.5 * Math.log(2 * Math.PI);
    expect(scores[0]).toBeCloseTo(41 / 15 + constant, 9);
    expect(scores[1]).toBeCloseTo(1 / 15 + constant, 9);
  });

  it('is deterministic: the same references and target give the same scores', async () => {
    const [a, b] = [liraAttack(), liraAttack()];
    await a.prepare(references);
    await b.prepare(references);
    expect([...a.score(target)]).toEqual([...b.score(target)]);
  });
});

describe('LiRA per-side reference counts (plot.py: the smallest count over the audit set, first models)', () => {
  // φ per model [example 0, example 1] and keep:
  //   m0 [1, 0] IN/OUT · m1 [10, 9] IN/OUT · m2 [10, 10] IN/OUT · m3 [−1, 2] OUT/IN · m4 [−3, 5] OUT/OUT.
  // Example 0 has 3 IN and 2 OUT models, example 1 has 1 IN and 4 OUT: in_size = 1, out_size = 2.
  const references: ReferenceSignals = {
    models: [
      [1, 0],
      [10, 9],
      [10, 10],
      [-1, 2],
      [-3, 5],
    ].map((phi) => signalsFromPhi(phi)),
    keep: [
      [1, 0],
      [1, 0],
      [1, 0],
      [0, 1],
      [0, 0],
    ],
  };
  const target = signalsFromPhi([1, 2]);

  it('default: 1 IN (m0 | m3) and 2 OUT (m3, m4 | m0, m1) per example', async () => {
    // μ_in = 1 | 2, σ = std{1, 2} = 0.5 (2σ² = 0.5); μ_out = −2 | 4.5.
    // Example 0: ((1 + 2)² − 0)/0.5 = 18; example 1: ((2 − 4.5)² − 0)/0.5 = 12.5.
    const a = liraAttack();
    await a.prepare(references);
    const scores = a.score(target);
    expect(scores[0]).toBeCloseTo(18, 9);
    expect(scores[1]).toBeCloseTo(12.5, 9);
  });

  it('maxPerSide caps both sides further: 1 OUT (m3 | m0)', async () => {
    // μ_out = −1 | 0, σ = 0.5: ((1 + 1)² − 0)/0.5 = 8 and ((2 − 0)² − 0)/0.5 = 8.
    const a = liraAttack({ maxPerSide: 1 });
    await a.prepare(references);
    const scores = a.score(target);
    expect(scores[0]).toBeCloseTo(8, 9);
    expect(scores[1]).toBeCloseTo(8, 9);
  });

  it("perSide 'all': every reference of each example", async () => {
    // IN {1, 10, 10} | {2}: μ_in = 10 | 2, σ² = var{1, 10, 10, 2} = 72.75/4 (mean 5.75); OUT {−1, −3} | {0, 9, 10, 5}: μ_out = −2 | 7.
    const twoSigma2 = 72.75 / 2;
    const a = liraAttack({ perSide: 'all' });
    await a.prepare(references);
    const scores = a.score(target);
    expect(scores[0]).toBeCloseTo((3 ** 2 - 9 ** 2) / twoSigma2, 9);
    expect(scores[1]).toBeCloseTo((5 ** 2 - 0) / twoSigma2, 9);
  });

  it('offline ignores IN counts: an example without IN references is fine', async () => {
    const a = liraAttack({ mode: 'offline', fixVariance: false });
    await a.prepare({ models: references.models, keep: references.keep.map(() => [0, 0]) });
    // Every model is OUT for both examples: out_size 5; example 0's OUT φ {1, 10, 10, −1, −3} has median 1
    // and mean 3.4, so at x = 1 the score is −log N(1; 1, σ) = ln σ + ½ ln 2π.
    const s = a.score(target);
    const outs = [1, 10, 10, -1, -3];
    const sd = Math.sqrt(outs.reduce((q, v) => q + (v - 3.4) ** 2, 0) / 5);
    expect(s[0]).toBeCloseTo(Math.log(sd) + 0.5 * Math.log(2 * Math.PI), 9); // x = 1 = the median
  });

  it('rejects bad options with an error naming them', () => {
    expect(() => liraAttack({ maxPerSide: 0 })).toThrow(/maxPerSide must be a positive integer or Infinity, got 0/);
    expect(() => liraAttack({ maxPerSide: 1.5 })).toThrow(InvalidArgumentError);
    expect(() => liraAttack({ perSide: 'some' as 'all' })).toThrow(/perSide must be 'smallest' or 'all', got "some"/);
  });
});
