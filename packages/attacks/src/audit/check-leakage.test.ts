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
    // 0.1 % FPR is below what 100 non-members resolve (1 %): undecided unless acknowledged, the bound computed either way.
    const unresolved = checkLeakage(identical, { tprAtFpr: [0.001, 0.05] });
    expect(unresolved).toMatchObject({ pass: false, decided: false });
    expect(unresolved.findings.map((f) => f.code)).toEqual(['tpr-below-resolution']);
    const allow = ['tpr-below-resolution'] as const;
    const verdict = checkLeakage(identical, { tprAtFpr: [0.001, 0.05], allow });
    expect(verdict.checks[0]!.upper).toBeCloseTo(0.03621669264517646, 12);
    expect(verdict.checks[0]!.estimate).toBe(0);
    expect(verdict.pass).toBe(true);
    const strict = checkLeakage(identical, { tprAtFpr: [0.001, 0.03], allow });
    expect(strict.pass).toBe(false);
    expect(strict.message).toBe('leaks more than allowed at 95 % confidence: TPR@0.1 % FPR upper bound 3.62 % > ceiling 3 % (same, estimate 0 %)');
    // At 99 % confidence the bound widens: 1 − 0.005^(1/100).
    expect(checkLeakage(identical, { tprAtFpr: [0.001, 0.05], confidence: 0.99, allow }).checks[0]!.upper).toBeCloseTo(1 - 0.005 ** 0.01, 12);
    // A ceiling at an FPR the data resolve reads no such finding (the report's own TPR@0.1 % column does not bear on it).
    expect(checkLeakage(identical, { tprAtFpr: [0.01, 0.05] }).decided).toBe(true);
  });

  it('perfect separation fails both ceilings; the advantage bound is the bootstrap upper bound (1 here)', () => {
    const verdict = checkLeakage(separated, {
      advantage: 0.1,
      tprAtFpr: [
        [0.001, 0.05],
        [0.01, 0.5],
      ],
      allow: ['tpr-below-resolution'],
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
    const pass = leakMatchers.toLeakAtMost(identical, { tprAtFpr: [0.001, 0.05], allow: ['tpr-below-resolution'] });
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

describe('an audit with a validity finding is not decided (docs/guides/audit-doctor.md)', () => {
  const finding = {
    code: 'shadow-overlap',
    cause: '12 shadow records are target members',
    action: 'draw shadow data disjoint from the target',
    numbers: { shared: 12 },
  } as const;
  const invalid = { ...identical, confidence: identical.confidence, attacks: identical.attacks, validity: { findings: [finding] } };

  it('checkLeakage: pass is false and the message names the finding, whatever the leakage; allow acknowledges it', () => {
    const verdict = checkLeakage(invalid, { advantage: 0.5 });
    expect(verdict).toMatchObject({ pass: false, decided: false, findings: [finding] });
    // The leakage itself would pass: the numbers are kept in the message, after the finding.
    expect(verdict.checks.every((c) => c.pass)).toBe(true);
    expect(verdict.message).toMatch(
      /^cannot be decided: the audit is not valid \(shadow-overlap; .*\): 12 shadow records are target members — draw shadow data disjoint from the target; the invalid audit's numbers: leaks at most the ceilings/,
    );
    expect(checkLeakage(invalid, { advantage: 0.5, allow: ['shadow-overlap'] })).toMatchObject({ pass: true, decided: true, findings: [] });
    expect(checkLeakage(identical, { advantage: 0.5 }).decided).toBe(true);
    expect(() => checkLeakage(invalid, { advantage: 0.5, allow: ['overlap' as never] })).toThrow(
      /allow must list finding codes \(shadow-overlap, .*\), got "overlap"/,
    );
  });

  it('toLeakAtMost fails on an invalid audit with and without .not', () => {
    const direct = leakMatchers.toLeakAtMost.call({ isNot: false }, invalid, { advantage: 0.5 });
    expect(direct.pass).toBe(false);
    expect(direct.message()).toMatch(/^expected a valid audit, but it cannot be decided: the audit is not valid \(shadow-overlap/);
    // Under .not, the runner inverts pass: true here makes `.not.toLeakAtMost` fail too.
    expect(leakMatchers.toLeakAtMost.call({ isNot: true }, invalid, { advantage: 0.5 }).pass).toBe(true);
    expect(leakMatchers.toLeakAtMost.call({ isNot: false }, invalid, { advantage: 0.5, allow: ['shadow-overlap'] }).pass).toBe(true);
  });
});
