import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditScores } from './audit-scores';

const here = new URL('.', import.meta.url).pathname;
const uniform = (seed: number) => {
  let s = seed;
  return () => ((s = (1103515245 * s + 12345) % 2 ** 31), s / 2 ** 31);
};

describe('auditScores', () => {
  it('per-record exposure: scores, ranks (ties share the best rank), FPR to flag and the top records (hand calculation)', () => {
    // Members 3, 1, 2, 2 and non-members 0, 2.5: ranks 1, 4, 2, 2; non-members ≥ 3: none, ≥ 2: one of two, ≥ 1: one of two.
    const report = auditScores(
      {
        attacks: [{ name: 's', memberScores: [3, 1, 2, 2], nonMemberScores: [0, 2.5] }],
        memberLabels: [0, 1, 0, 1],
        nonMemberLabels: [0, 1],
        memberLosses: [0.1, 2, 0.5, 0.6],
      },
      { topRecords: 2, resamples: 20 },
    );
    expect(report.exposure.attack).toBe('s');
    expect(report.exposure.records.map((r) => [r.index, r.rank, r.fprToFlag, r.label, r.loss])).toEqual([
      [0, 1, 0, 0, 0.1],
      [1, 4, 0.5, 1, 2],
      [2, 2, 0.5, 0, 0.5],
      [3, 2, 0.5, 1, 0.6],
    ]);
    expect(report.exposure.top.map((r) => r.index)).toEqual([0, 2]);
    // Per class: class 0 has members 3, 2 and non-member 0 → AUC 1; class 1 has members 1, 2 and non-member 2.5 → AUC 0.
    expect(report.attacks[0]!.perClass.map((k) => [k.label, k.auc])).toEqual([
      [0, 1],
      [1, 0],
    ]);
    expect(report.numClasses).toBe(2);
    // toCSV: every record, members with their exposure, non-members with empty exposure columns.
    expect(report.toCSV()).toBe(
      [
        'set,index,label,s,rank,fpr_to_flag,loss',
        'member,0,0,3,1,0,0.1',
        'member,1,1,1,4,0.5,2',
        'member,2,0,2,2,0.5,0.5',
        'member,3,1,2,2,0.5,0.6',
        'non-member,0,0,0,,,',
        'non-member,1,1,2.5,,,',
        '',
      ].join('\n'),
    );
  });

  it('exposure follows the strongest attack at low FPR (then AUC)', () => {
    const u = uniform(5);
    const noise = (n: number) => Array.from({ length: n }, () => u());
    const strong = { name: 'strong', memberScores: noise(50).map((v) => v + 1), nonMemberScores: noise(50) };
    const weak = { name: 'weak', memberScores: noise(50), nonMemberScores: noise(50) };
    const labels = new Array(50).fill(0);
    const report = auditScores({ attacks: [weak, strong], memberLabels: labels, nonMemberLabels: labels }, { resamples: 20 });
    expect(report.exposure.attack).toBe('strong');
    expect(report.maxAdvantage.name).toBe('strong');
    expect(report.attacks[1]!.tprAtFpr[0]!.tpr.estimate).toBe(1);
  });

  it('toJSON, toMarkdown and toHTML: plain data, the tables, one self-contained page', () => {
    const report = auditScores(
      { attacks: [{ name: 'loss', memberScores: [3, 1, 2, 2], nonMemberScores: [0, 2.5, -1] }], memberLabels: [0, 1, 0, 1], nonMemberLabels: [0, 1, 1] },
      { resamples: 20 },
    );
    const json = JSON.parse(JSON.stringify(report)) as { format: string; attacks: Array<{ memberScores: number[]; tprAtFpr: Array<{ threshold: unknown }> }> };
    expect(json.format).toBe('mia-audit-1');
    expect(json.attacks[0]!.memberScores).toEqual([3, 1, 2, 2]);
    expect((json as unknown as { nonMemberLabels: number[] }).nonMemberLabels).toEqual([0, 1, 1]);
    expect(json.attacks[0]!.tprAtFpr[0]!.threshold).toBe(3); // FPR ≤ 1 % with 3 non-members: no false positive, only the member scoring 3
    const md = report.toMarkdown();
    expect(md).toMatch(/^# Membership-inference audit/);
    expect(md).toContain('| attack | advantage | AUC | TPR@1 % | TPR@0.1 % | ε ≥ (δ = 0) |');
    expect(md).toMatch(/\| loss \| 66\.7 % \[/); // best threshold 1: TPR 4/4 − FPR 1/3
    expect(md).toContain('## Most exposed records (loss)');
    expect(md).toContain('| 1 | 0 | 0 | 3.000 | 0.00 % | NaN |');
    const html = report.toHTML();
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<svg');
    expect(html).not.toMatch(/<script|<link|src=|href=/);
    expect(html).toContain('<td>loss</td>');
  });

  it('rejects bad input with the argument, expected and actual value', () => {
    const ok = { attacks: [{ name: 'a', memberScores: [1], nonMemberScores: [0] }], memberLabels: [0], nonMemberLabels: [0] };
    expect(() => auditScores({ ...ok, attacks: [] })).toThrow(/input.attacks must be a non-empty array/);
    expect(() => auditScores({ ...ok, attacks: [ok.attacks[0]!, ok.attacks[0]!] })).toThrow(/attack names must be unique, got "a" twice/);
    expect(() => auditScores({ ...ok, attacks: [{ name: 'a', memberScores: [NaN], nonMemberScores: [0] }] })).toThrow(
      /attacks\[0\].memberScores\[0\] must be a number \(not NaN\), got NaN/,
    );
    expect(() => auditScores({ ...ok, attacks: [{ name: 'a', memberScores: [1, 2], nonMemberScores: [0] }] })).toThrow(
      /attacks\[0\].memberScores must have 1 entries, got 2/,
    );
    expect(() => auditScores(ok, { topRecords: 0 })).toThrow(/topRecords must be a positive integer, got 0/);
    expect(() => auditScores(ok, { confidence: 2 })).toThrow(/auditScores: confidence must be a number in \(0, 1\), got 2/);
    expect(() => auditScores(ok, { resamples: 0 })).toThrow(/auditScores: resamples must be a positive integer, got 0/);
    expect(() => auditScores(ok, { delta: 1.5 })).toThrow(/auditScores: delta must be a number in \[0, 1\], got 1.5/);
    expect(() => auditScores(ok, { seed: 0.5 })).toThrow(/auditScores: seed must be an integer, got 0.5/);
  });

  it('the audit path is browser-safe: no node: import and no test-runner import in its sources', () => {
    const sources = [
      ...readdirSync(here)
        .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
        .map((f) => join(here, f)),
      join(here, '..', 'matchers.ts'),
    ];
    expect(sources.length).toBeGreaterThan(8);
    for (const file of sources) {
      const specifiers = [...readFileSync(file, 'utf8').matchAll(/^(?:import|export)[^;]*?from\s+'([^']+)'/gm)].map((m) => m[1]!);
      for (const s of specifiers) expect(`${file}: ${s}`).toMatch(/: (\.\.?\/|@mia\/(core|metrics)$|@tensorflow\/tfjs-core$)/);
    }
  });
});
