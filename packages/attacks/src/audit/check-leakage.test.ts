import { describe, expect, it } from 'vitest';
import { leakMatchers } from '../matchers';
import { auditScores } from './audit-scores';
import { checkLeakage } from './check-leakage';

const range = (n: number, offset = 0) => Array.from({ length: n }, (_, i) => i + offset);
const labels = new Array(100).fill(0);
// Perfect separation (members 100–199, non-members 0–99) and identical scores (both 0–99).
const separated = auditScores(
  { attacks: [{ name: 'sep', memberScores: range(100, 100), nonMemberScores: range(100) }], memberLabels: labels, nonMemberLabels: labels },
  { resamples: 100 },
);
const identical = auditScores(
  { attacks: [{ name: 'same', memberScores: range(100), nonMemberScores: range(100) }], memberLabels: labels, nonMemberLabels: labels },
  { resamples: 100 },
);

describe('checkLeakage', () => {
  it('TPR@0.1 % FPR of identical scores: Clopper–Pearson upper bound of 0/100 = 1 − 0.025^(1/100) = 0.03622 (closed form)', () => {
    const verdict = checkLeakage(identical, { tprAtFpr: [0.001, 0.05] });
    expect(verdict.checks[0]!.upper).toBeCloseTo(0.03621669264517646, 12);
    expect(verdict.checks[0]!.estimate).toBe(0);
    expect(verdict.pass).toBe(true);
    const strict = checkLeakage(identical, { tprAtFpr: [0.001, 0.03] });
    expect(strict.pass).toBe(false);
    expect(strict.message).toBe('leaks more than allowed at 95 % confidence: TPR@0.1 % FPR upper bound 3.62 % > ceiling 3 % (same, estimate 0 %)');
    // At 99 % confidence the bound widens: 1 − 0.005^(1/100).
    expect(checkLeakage(identical, { tprAtFpr: [0.001, 0.05], confidence: 0.99 }).checks[0]!.upper).toBeCloseTo(1 - 0.005 ** 0.01, 12);
  });

  it('perfect separation fails both ceilings; the advantage bound is the bootstrap upper bound (1 here)', () => {
    const verdict = checkLeakage(separated, {
      advantage: 0.1,
      tprAtFpr: [
        [0.001, 0.05],
        [0.01, 0.5],
      ],
    });
    expect(verdict.pass).toBe(false);
    expect(verdict.checks.map((c) => [c.metric, c.upper, c.pass])).toEqual([
      ['advantage', 1, false],
      ['TPR@0.1 % FPR', 1, false],
      ['TPR@1 % FPR', 1, false],
    ]);
    expect(verdict.message).toMatch(
      /^leaks more than allowed at 95 % confidence: advantage upper bound 100 % > ceiling 10 % \(sep, estimate 100 %\); TPR@0.1 % FPR/,
    );
  });

  it('takes the worst attack, and works on the JSON form with a recomputed bound at another confidence', () => {
    const both = auditScores(
      {
        attacks: [
          { name: 'same', memberScores: range(100), nonMemberScores: range(100) },
          { name: 'sep', memberScores: range(100, 100), nonMemberScores: range(100) },
        ],
        memberLabels: labels,
        nonMemberLabels: labels,
      },
      { resamples: 100 },
    );
    expect(checkLeakage(both, { advantage: 0.5 }).checks[0]!.attack).toBe('sep');
    const json = JSON.parse(JSON.stringify(identical)) as Parameters<typeof checkLeakage>[0];
    const fromJson = checkLeakage(json, { advantage: 0.3, confidence: 0.9 });
    expect(fromJson.confidence).toBe(0.9);
    expect(fromJson.checks[0]!.upper).toBeGreaterThan(0); // best-threshold advantage of identical scores is 0, resamples are not
    expect(fromJson.checks[0]!.upper).toBeLessThan(0.3);
  });

  it('rejects bad ceilings with the argument, expected and actual value', () => {
    expect(() => checkLeakage(identical, {})).toThrow(/give at least one ceiling \(advantage or tprAtFpr\), got none/);
    expect(checkLeakage(identical, { advantage: 0.5, tprAtFpr: [] }).checks.map((c) => c.metric)).toEqual(['advantage']); // an empty list is no TPR ceiling
    expect(() => checkLeakage(identical, { advantage: 1.5 })).toThrow(/advantage must be a number in \[0, 1\], got 1.5/);
    expect(() => checkLeakage(identical, { tprAtFpr: [0.001] as never })).toThrow(/tprAtFpr must be \[fpr, maxTpr\]/);
    expect(() => checkLeakage(identical, { advantage: 0.1, confidence: 1 })).toThrow(/confidence must be a number in \(0, 1\), got 1/);
    expect(() => checkLeakage({ confidence: 0.95, attacks: [] }, { advantage: 0.1 })).toThrow(/report must be an audit report with at least one attack/);
  });
});

describe('toLeakAtMost (expect.extend matcher)', () => {
  it('passes and fails with a message naming the metric, the bound and the ceiling; .not inverts', () => {
    const pass = leakMatchers.toLeakAtMost(identical, { tprAtFpr: [0.001, 0.05] });
    expect(pass.pass).toBe(true);
    expect(pass.message()).toMatch(
      /^expected the model to leak more than the ceilings, but it leaks at most the ceilings at 95 % confidence: TPR@0.1 % FPR upper bound 3.62 % ≤ ceiling 5 %/,
    );
    const fail = leakMatchers.toLeakAtMost(separated, { advantage: 0.1 });
    expect(fail.pass).toBe(false);
    expect(fail.message()).toMatch(
      /^expected the model to leak at most the ceilings, but it leaks more than allowed at 95 % confidence: advantage upper bound 100 % > ceiling 10 %/,
    );
  });
});
