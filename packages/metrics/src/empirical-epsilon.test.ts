import { describe, expect, it } from 'vitest';
import { clopperPearson } from './clopper-pearson';
import { empiricalEpsilonLowerBound } from './empirical-epsilon';
import { MetricsError } from './metrics-error';
import { seededUniform } from './seeded-uniform';

const range = (n: number, offset = 0) => Array.from({ length: n }, (_, i) => i + offset);

describe('empiricalEpsilonLowerBound', () => {
  it('perfect separation of 100 + 100: ε = log(q / (1 − q)), q = 0.025^(1/100) (closed-form Clopper–Pearson at k = n and k = 0)', () => {
    // Hand calculation: TPR_low = (α/2)^(1/n) = q, FPR_high = 1 − q; both forms give q / (1 − q).
    const result = empiricalEpsilonLowerBound({ memberScores: range(100, 1000), nonMemberScores: range(100) });
    expect(result.epsilon).toBeCloseTo(3.2813463490987864, 10);
    expect(result.threshold).toBe(1000);
    expect(result.tpr.estimate).toBe(1);
    expect(result.fpr.estimate).toBe(0);
    expect(result.numMembers).toBe(100);
    expect(result.confidence).toBe(0.95);
    // With δ = 0.01 the numerator loses δ: log((q − 0.01) / (1 − q)).
    expect(empiricalEpsilonLowerBound({ memberScores: range(100, 1000), nonMemberScores: range(100), delta: 0.01 }).epsilon).toBeCloseTo(
      3.2709163691681185,
      10,
    );
  });

  it('a fixed threshold tests that decision only: 10/10 members and 0/10 non-members above it gives log(0.6915…/0.3085…)', () => {
    // Clopper–Pearson (10, 10) lower = 0.69150289218123924, (0, 10) upper = 0.30849710781876076 (clopper-pearson.test.ts).
    const result = empiricalEpsilonLowerBound({ memberScores: range(10, 100), nonMemberScores: range(10), threshold: 50 });
    expect(result.epsilon).toBeCloseTo(0.8071548652489522, 12);
    expect(result.threshold).toBe(50);
    // A threshold above every score says nothing.
    expect(empiricalEpsilonLowerBound({ memberScores: range(10, 100), nonMemberScores: range(10), threshold: 1e9 }).epsilon).toBe(0);
  });

  it('is 0 when members and non-members score identically (no evidence against any ε)', () => {
    const same = range(200).map((i) => i % 17);
    expect(empiricalEpsilonLowerBound({ memberScores: same, nonMemberScores: same }).epsilon).toBe(0);
  });

  it.each([
    ['tied scores', (v: number) => Math.round(10 * v)],
    ['distinct scores', (v: number) => v],
  ])('equals a brute-force maximum over every threshold and both forms (%s)', (_, shape) => {
    const u = seededUniform(3);
    const members = Array.from({ length: 60 }, () => shape(u() + 0.4));
    const nonMembers = Array.from({ length: 80 }, () => shape(u()));
    const delta = 1e-3;
    let expected = 0;
    for (const t of [...new Set([...members, ...nonMembers])]) {
      const tpr = clopperPearson(members.filter((s) => s >= t).length, 60);
      const fpr = clopperPearson(nonMembers.filter((s) => s >= t).length, 80);
      expected = Math.max(expected, Math.log((tpr.lower - delta) / fpr.upper) || 0, Math.log((1 - fpr.upper - delta) / (1 - tpr.lower)) || 0);
    }
    const result = empiricalEpsilonLowerBound({ memberScores: members, nonMemberScores: nonMembers, delta });
    expect(expected).toBeGreaterThan(0.3); // the sets are well separated: a real bound, not the 0 floor
    expect(result.epsilon).toBeCloseTo(expected, 12);
  });

  it('finds the exact best threshold when many thresholds come close (a weak attack on 400 + 500, brute force)', () => {
    // The search skips thresholds by a bound that uses the Clopper–Pearson bounds of every 16th count:
    // here hundreds of thresholds are within that bound of the best, and it must still return the best.
    const u = seededUniform(8);
    const members = Array.from({ length: 400 }, () => u() + 0.08);
    const nonMembers = Array.from({ length: 500 }, () => u());
    let expected = { epsilon: -Infinity, threshold: NaN };
    for (const t of [...new Set([...members, ...nonMembers])].sort((a, b) => b - a)) {
      const tpr = clopperPearson(members.filter((s) => s >= t).length, 400);
      const fpr = clopperPearson(nonMembers.filter((s) => s >= t).length, 500);
      const epsilon = Math.max(Math.log(tpr.lower / fpr.upper), Math.log((1 - fpr.upper) / (1 - tpr.lower)));
      if (epsilon > expected.epsilon) expected = { epsilon, threshold: t };
    }
    const result = empiricalEpsilonLowerBound({ memberScores: members, nonMemberScores: nonMembers });
    expect(expected.epsilon).toBeGreaterThan(0);
    expect([result.epsilon, result.threshold]).toEqual([expected.epsilon, expected.threshold]);
  });

  it('grows with the number of examples at the same separation, and shrinks with a higher confidence', () => {
    const at = (n: number, confidence = 0.95) => empiricalEpsilonLowerBound({ memberScores: range(n, n), nonMemberScores: range(n), confidence }).epsilon;
    expect(at(1000)).toBeGreaterThan(at(100));
    expect(at(100, 0.99)).toBeLessThan(at(100, 0.95));
  });

  it('rejects bad input with the argument, expected and actual value', () => {
    const ok = { memberScores: [1, 2], nonMemberScores: [0, 1] };
    expect(() => empiricalEpsilonLowerBound({ ...ok, delta: 1 })).toThrow(/delta must be a finite number in \[0, 1\), got 1/);
    expect(() => empiricalEpsilonLowerBound({ ...ok, delta: -0.1 })).toThrow(/delta must be a finite number in \[0, 1\], got -0.1/);
    expect(() => empiricalEpsilonLowerBound({ ...ok, confidence: 1.5 })).toThrow(/confidence must be a number in \(0, 1\), got 1.5/);
    expect(() => empiricalEpsilonLowerBound({ ...ok, memberScores: [] })).toThrow(/memberScores must not be empty/);
    expect(() => empiricalEpsilonLowerBound({ ...ok, nonMemberScores: [0, NaN] })).toThrow(/nonMemberScores\[1\] must not be NaN/);
    expect(() => empiricalEpsilonLowerBound({ ...ok, threshold: NaN })).toThrow(/threshold must be a number \(not NaN\), got NaN/);
    expect(() => empiricalEpsilonLowerBound(null as never)).toThrow(MetricsError);
  });
});
