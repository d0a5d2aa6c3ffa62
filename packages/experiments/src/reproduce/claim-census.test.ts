import { describe, expect, it } from 'vitest';
import { claimCensus, partialAgrees } from './claim-census';
import { claimCensusMarkdown } from './claim-census-markdown';
import { storedReproduction, type StoredReproductionResult } from './stored-reproduction';
import { compareEstimates, decidedClaim, notTestable, undecidedColumn } from './verdicts';
import type { Claim, ColumnDecision, ReproductionResult } from './types';

const estimate = (a: number, b: number) => compareEstimates({ value: a, se: 0.01 }, { value: b, se: 0.01 }, { direction: 'greater', format: 'pct' });
const HOLDS = estimate(0.6, 0.5);
const FAILS = estimate(0.4, 0.5);
const NOISE = estimate(0.51, 0.5);
const CIFAR100 = 'not run: dataset not available (loadDataset: cifar100 is not downloaded automatically and no data directory was given)';
const column = (name: string, decision: typeof HOLDS): ColumnDecision => ({ ...decision, column: name });
const partial = (statement: string, columns: ColumnDecision[]): Claim => ({ statement, verdict: 'partial', evidence: 'e', columns });

/** A reproduction.json as written (undecided decisions without their kind), with the fields the census reads. */
const stored = (name: string, paper: string, claims: Claim[]): StoredReproductionResult =>
  storedReproduction({ name, paper, scale: 'cpu', claims, verdictRules: 4 } as unknown as ReproductionResult) as StoredReproductionResult;

const PAPER = 'Paper A (Someone et al.)';
const reproductions = [
  stored('a-table1', PAPER, [
    decidedClaim('held', HOLDS),
    decidedClaim('failed', FAILS),
    decidedClaim('noise', NOISE),
    notTestable('untestable', 'saturated (undefended loss AUC 1.000 ≥ 0.99: no defense effect can show)'),
    { statement: 'not run', verdict: 'not evaluated', evidence: 'e', columns: [undecidedColumn('CIFAR-100', 'not-run', CIFAR100)] },
    partial('agreeing partial', [column('CIFAR-10', HOLDS), column('Purchase', HOLDS), undecidedColumn('CIFAR-100', 'not-run', CIFAR100)]),
    partial('disagreeing partial', [
      column('CIFAR-10', HOLDS),
      column('Purchase', NOISE),
      undecidedColumn('Texas', 'not-testable', 'undefended train accuracy 13.2 % < 90.0 %'),
    ]),
    decidedClaim('ours (not a claim of the paper): ours inside a paper', HOLDS),
  ]),
  stored('a-fig2', PAPER, [decidedClaim('stale and held', HOLDS), decidedClaim('stale and within noise', NOISE)]),
  stored('mine-plane', 'ours (no paper)', [decidedClaim('ours: held', HOLDS), notTestable('ours: untestable', 'no row at matched utility')]),
];
const census = claimCensus(reproductions, { stale: (r) => r.name === 'a-fig2' });

describe('claimCensus', () => {
  it("counts the papers' claims by verdict, decided = held + did not hold + agreeing partial; ours apart", () => {
    expect(census.papers.map((p) => [p.paper, p.reproductions])).toEqual([[PAPER, ['a-table1', 'a-fig2']]]);
    // 9 paper claims: held ×2, failed, noise ×2, untestable, not run, 2 partials (one agreeing).
    expect(census.total).toEqual({
      claims: 9,
      verdicts: { holds: 2, 'does not hold': 1, 'within noise': 2, 'not testable': 1, 'not evaluated': 1, partial: 2 },
      agreeingPartial: 1,
      decided: 4,
      stale: 2,
    });
    expect(census.papers[0]!.counts).toEqual(census.total);
    expect(census.ours).toMatchObject({ claims: 3, decided: 2, verdicts: { holds: 2, 'not testable': 1 } });
  });

  it('says what every undecided claim needs, from its structured decisions', () => {
    const needs = Object.fromEntries(census.claims.filter((c) => !c.decided).map((c) => [c.statement, c.needs]));
    expect(needs).toEqual({
      noise: [{ kind: 'within noise', columns: [] }],
      untestable: [{ kind: 'saturated', columns: [] }],
      'not run': [{ kind: 'dataset not available here', columns: ['CIFAR-100'] }],
      'disagreeing partial': [
        { kind: 'within noise', columns: ['Purchase'] },
        { kind: 'not in regime', columns: ['Texas'] },
      ],
      'stale and within noise': [
        { kind: 'stale results', columns: [] },
        { kind: 'within noise', columns: [] },
      ],
      'ours: untestable': [{ kind: 'other', columns: [], reason: 'no row at matched utility' }],
    });
    expect(census.claims.filter((c) => c.decided).every((c) => c.needs.length === 0)).toBe(true);
    expect(census.claims.find((c) => c.statement === 'agreeing partial')).toMatchObject({ reproduction: 'a-table1', number: 6, decided: true, own: false });
  });

  it('refuses a verdict it does not know', () => {
    const bad = stored('a-bad', PAPER, [{ statement: 'x', verdict: 'maybe' as Claim['verdict'], evidence: 'e' }]);
    expect(() => claimCensus([bad])).toThrow(/verdict "maybe"/);
  });
});

describe('partialAgrees', () => {
  const untestable = undecidedColumn('C', 'not-testable', 'saturated');
  it('agrees only when every decided column has the same verdict, held or did not hold', () => {
    expect(partialAgrees(partial('', [column('A', HOLDS), untestable]))).toBe(true);
    expect(partialAgrees(partial('', [column('A', FAILS), column('B', FAILS), untestable]))).toBe(true);
    expect(partialAgrees(partial('', [column('A', HOLDS), column('B', FAILS)]))).toBe(false);
    expect(partialAgrees(partial('', [column('A', HOLDS), column('B', NOISE)]))).toBe(false);
    expect(partialAgrees(partial('', [column('A', NOISE)]))).toBe(false);
    expect(partialAgrees(partial('', [untestable]))).toBe(false);
    // Decided under verdict rules before 3: no columns to check.
    expect(partialAgrees({ verdict: 'partial' })).toBe(false);
    expect(partialAgrees({ verdict: 'holds', columns: [column('A', HOLDS)] })).toBe(false);
  });
});

describe('claimCensusMarkdown', () => {
  it('states the target and the measured share, and one line per undecided claim', () => {
    const text = claimCensusMarkdown(census, { target: 0.6 });
    expect(text).toContain('| Paper A | 9 | 2 | 1 | 2 | 1 | 1 | 2 | 1 | 4 | 44 % |');
    expect(text).toContain("| ours (not a paper's claim) | 3 | 2 | 0 | 0 | 1 | 0 | 0 | 0 | 2 | 67 % |");
    expect(text).toContain('measured: **4 of 9 (44 %)**, target not met; 2 of the 9 are in results measured with an earlier plan');
    expect(text).toContain('(5 claims, of which 1 needs only what this machine cannot provide');
    expect(text).toContain('- `a-table1` #5 (not evaluated): dataset not available here: CIFAR-100 — not run');
    expect(text).toContain('- `a-fig2` #2 (within noise): stale results (re-run needed); within noise (needs more seeds/examples) — stale and within noise');
    expect(text).toMatch(/Our own undecided claims:\n\n- `mine-plane` #2 \(not testable\): other: no row at matched utility — ours: untestable$/);
    expect(claimCensusMarkdown(census, { target: 0.4 })).toContain('**4 of 9 (44 %)**, target met');
  });
});
