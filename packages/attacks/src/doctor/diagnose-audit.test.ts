import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isSearchUnaccounted, type AuditDescription } from './audit-description';
import { AUDIT_FINDING_CODES, findingLine } from './audit-finding';
import { diagnoseAudit } from './diagnose-audit';

// The target evaluates members 0..99 and non-members 100..199 (dataset indices); content hashes are h<index>.
const ids = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);
const hashes = (list: number[]) => list.map((i) => `h${i}`);
const base: AuditDescription = {
  members: { ids: ids(0, 100), hashes: hashes(ids(0, 100)) },
  nonMembers: { ids: ids(100, 200), hashes: hashes(ids(100, 200)) },
};
/** Carlini-style balanced keep masks over the 200 audit records: model k keeps record i when (i + k) is even. */
const balanced = (models: number) => Array.from({ length: models }, (_, k) => Uint8Array.from({ length: 200 }, (_, i) => ((i + k) % 2 === 0 ? 1 : 0)));

describe('diagnoseAudit', () => {
  it('finds nothing in a clean audit', () => {
    const clean: AuditDescription = {
      ...base,
      shadows: [{ name: 'shadow', members: { ids: ids(200, 300), hashes: hashes(ids(200, 300)) } }],
      references: {
        keep: balanced(16),
        attacks: [
          { name: 'lira', method: 'lira', mode: 'online' },
          { name: 'lira-off', method: 'lira', mode: 'offline' },
        ],
      },
      operatingPoints: [{ where: 'table', fpr: 0.01, achievedFpr: 0.01, numNonMembers: 100, showsAchievedFpr: false }],
      selections: [{ what: 'the checkpoint', records: { ids: ids(300, 350) } }],
      training: {
        target: { architecture: 'mlp', schedule: 'cosine' },
        others: [{ name: 'reference-0', settings: { architecture: 'mlp', schedule: 'cosine' } }],
      },
      privacy: [{ name: 'dp', epsilon: 4, search: { candidates: 25, onPrivateData: false, accounted: false } }],
    };
    expect(diagnoseAudit(clean)).toEqual([]);
  });

  it('finds a shadow trained on evaluation records, by index and by content', () => {
    const [byIndex] = diagnoseAudit({ ...base, shadows: [{ name: 'shadow-2', members: { ids: [5, 150, 300] } }] });
    expect(byIndex).toMatchObject({ code: 'shadow-overlap', numbers: { members: 1, nonMembers: 1, byContent: 0 } });
    expect(byIndex!.cause).toMatch(/^shadow model shadow-2 trained on 2 of the target's evaluation records: 1 members \(1 by index\), 1 non-members/);
    // A copy of record 7 under another index: only its content matches.
    const [byContent] = diagnoseAudit({ ...base, shadows: [{ name: 'shadow', members: { ids: [999], hashes: ['h7'] } }] });
    expect(byContent).toMatchObject({ code: 'shadow-overlap', numbers: { members: 1, byContent: 1 } });
  });

  it('finds non-members that are copies of members', () => {
    const findings = diagnoseAudit({ members: { hashes: ['a', 'b', 'c'] }, nonMembers: { hashes: ['x', 'b', 'y', 'c'] } });
    expect(findings).toMatchObject([{ code: 'evaluation-duplicates', numbers: { duplicates: 2, byContent: 2 } }]);
  });

  it('finds a reference that trained on a record its keep row counts OUT, and a population of members', () => {
    const keep = balanced(2);
    // Model 0 keeps the even records; it also trained on record 1 (odd: OUT for it).
    const trainedOn = [{ ids: [...ids(0, 200).filter((i) => i % 2 === 0), 1] }, { ids: ids(0, 200).filter((i) => i % 2 === 1) }];
    const findings = diagnoseAudit({ ...base, references: { keep, trainedOn, attacks: [] } });
    expect(findings).toMatchObject([{ code: 'reference-overlap', numbers: { model: 0, records: 1 } }]);
    const population = diagnoseAudit({ ...base, references: { keep, population: { ids: [3, 400] }, attacks: [] } });
    expect(population).toMatchObject([{ code: 'reference-overlap', numbers: { records: 1 } }]);
  });

  it('finds too few references: more configured than given, and a per-record σ from fewer than 32 per side', () => {
    const more = diagnoseAudit({ ...base, references: { keep: balanced(4), attacks: [{ name: 'lira-16', method: 'lira', mode: 'online', models: 16 }] } });
    expect(more).toMatchObject([{ code: 'references-too-few', numbers: { configured: 16, available: 4 } }]);
    const sigma = diagnoseAudit({
      ...base,
      references: { keep: balanced(16), attacks: [{ name: 'lira-off', method: 'lira', mode: 'offline', fixVariance: false }] },
    });
    expect(sigma).toMatchObject([{ code: 'references-too-few', numbers: { perSide: 8, needed: 32 } }]);
    // RMIA has no per-record σ: the same 16 models raise nothing for it.
    expect(diagnoseAudit({ ...base, references: { keep: balanced(16), attacks: [{ name: 'rmia', method: 'rmia', mode: 'offline' }] } })).toEqual([]);
  });

  it('finds online references that do not hold each record IN about half the time', () => {
    // Every model keeps records 0..49 and none keeps 150..199: those are IN in all or none of them.
    const keep = Array.from({ length: 8 }, (_, k) => Uint8Array.from({ length: 200 }, (_, i) => (i < 50 ? 1 : i >= 150 ? 0 : (i + k) % 2)));
    const findings = diagnoseAudit({ ...base, references: { keep, attacks: [{ name: 'lira-online', method: 'lira', mode: 'online' }] } });
    expect(findings).toMatchObject([{ code: 'references-unbalanced', numbers: { skewed: 100, records: 200, minIn: 0, maxIn: 8, models: 8 } }]);
  });

  it('finds a TPR stated below the FPR resolution (not when the read FPR is shown) and a TPR read at a larger FPR', () => {
    const findings = diagnoseAudit({
      ...base,
      operatingPoints: [
        { where: 'row a', fpr: 0.001, numNonMembers: 100, showsAchievedFpr: false },
        { where: 'row b', fpr: 0.001, numNonMembers: 100, showsAchievedFpr: false },
        { where: 'row c', fpr: 0.001, numNonMembers: 100, showsAchievedFpr: true },
        { where: 'row d', fpr: 0, numNonMembers: 100, showsAchievedFpr: false },
        { where: 'row e', fpr: 0.01, achievedFpr: 0.02, numNonMembers: 100, showsAchievedFpr: true },
      ],
    });
    expect(findings.map((f) => f.code)).toEqual(['tpr-below-resolution', 'fpr-mismatch']);
    expect(findings[0]!.cause).toBe(
      'a TPR at 0.1 % FPR is stated (row a; row b) with 100 non-members, whose smallest non-zero FPR is 1 %: it is the TPR at FPR 0',
    );
    expect(findings[1]!.cause).toBe('row e: the TPR reported at 1 % FPR was read at 2 % FPR');
  });

  it('finds a choice made on the evaluation records, listed or declared', () => {
    const listed = diagnoseAudit({ ...base, selections: [{ what: 'the attack threshold', records: { hashes: ['h150', 'h900'] } }] });
    expect(listed).toMatchObject([{ code: 'selected-on-evaluation', numbers: { records: 1, members: 0, nonMembers: 1 } }]);
    expect(diagnoseAudit({ ...base, selections: [{ what: 'the learning rate', on: 'evaluation' }] })[0]!.cause).toBe(
      'the learning rate was chosen on the evaluation records',
    );
    expect(diagnoseAudit({ ...base, selections: [{ what: 'the learning rate', on: 'validation' }] })).toEqual([]);
  });

  it('finds a reference trained with another architecture than the target declares, and ignores settings it does not declare', () => {
    const findings = diagnoseAudit({
      ...base,
      training: {
        target: { architecture: 'resnet18', epochs: 30 },
        others: [{ name: 'reference-3', settings: { architecture: 'wrn28-2', epochs: 30, seed: 4 } }],
      },
    });
    expect(findings).toMatchObject([{ code: 'training-mismatch', numbers: { settings: 1 } }]);
    expect(findings[0]!.cause).toBe('reference-3 was trained with another architecture than the target declares (architecture "wrn28-2" vs "resnet18")');
  });

  it('finds a DP ε reported after an unaccounted search on private data, and not an accounted one', () => {
    const claim = { name: 'DP-SGD ε=4', epsilon: 4, search: { candidates: 25, onPrivateData: true, accounted: false } };
    expect(diagnoseAudit({ ...base, privacy: [claim] })).toMatchObject([{ code: 'dp-search-unaccounted', numbers: { epsilon: 4, candidates: 25 } }]);
    expect(diagnoseAudit({ ...base, privacy: [{ ...claim, search: { ...claim.search, accounted: true } }] })).toEqual([]);
    expect(diagnoseAudit({ ...base, privacy: [{ ...claim, epsilon: null }] })).toEqual([]);
  });

  it('isSearchUnaccounted: only a best of ≥ 2 DP trainings chosen on private data and not accounted', () => {
    const search = { candidates: 25, onPrivateData: true, accounted: false };
    expect(isSearchUnaccounted(search)).toBe(true);
    expect(isSearchUnaccounted({ ...search, accounted: true })).toBe(false);
    expect(isSearchUnaccounted({ ...search, onPrivateData: false })).toBe(false);
    expect(isSearchUnaccounted({ ...search, candidates: 1 })).toBe(false);
    expect(isSearchUnaccounted({ ...search, candidates: 2 })).toBe(true);
  });

  it('gives every finding a documented code, a cause and an action', () => {
    const finding = diagnoseAudit({ ...base, selections: [{ what: 'x', on: 'evaluation' }] })[0]!;
    expect(AUDIT_FINDING_CODES[finding.code].reference.length).toBeGreaterThan(10);
    expect(findingLine(finding)).toBe(`selected-on-evaluation: x was chosen on the evaluation records — ${finding.action}`);
  });
});

describe('the audit-doctor guide', () => {
  it('has a row for every finding code, and no other', () => {
    const guide = readFileSync(new URL('../../../../docs/guides/audit-doctor.md', import.meta.url), 'utf8');
    const rows = [...guide.matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1]);
    expect(rows.sort()).toEqual(Object.keys(AUDIT_FINDING_CODES).sort());
  });
});
