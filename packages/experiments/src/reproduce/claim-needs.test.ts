import { describe, expect, it } from 'vitest';
import type { DefenseRow, ExperimentResults } from '../run/results';
import { DEFAULT_REGIME, collapseProblem, comparatorProblem, convergenceProblem, regimeProblem, saturationProblem, thresholdProblem } from '../run/testability';
import { claimNeeds, decisionNeed, needOfReason, needsLine } from './claim-needs';
import { compareEstimates, undecidedColumn } from './verdicts';
import type { Claim, ColumnDecision } from './types';

// A row with just the fields the testability gates read.
const row = (fields: Partial<DefenseRow>): DefenseRow => ({ label: 'undefended', attacks: [], maxAdvantage: 0, ...fields }) as DefenseRow;
const noWarnings = { warnings: [] } as unknown as ExperimentResults;
// The reasons a dataset that cannot be loaded and an out-of-scope run give (runReproduction, examples/ccl and examples/past configs).
const CIFAR100_MISSING =
  'not run: dataset not available (loadDataset: cifar100 is not downloaded automatically and no data directory was given: download cifar-100-binary.tar.gz)';
const IMAGENET = 'not run: ImageNet is out of scope for TF.js here (docs/protocol.md §7 A36)';

describe('needOfReason', () => {
  it('classifies the reasons the testability gates write, read from the gates themselves', () => {
    const saturated = saturationProblem(row({ attacks: [{ attack: 'loss', accuracy: 0.97, auc: 0.995 }] as unknown as DefenseRow['attacks'] }))!;
    const regime = regimeProblem(row({ trainAccuracy: 0.5, testAccuracy: 0.4 }), 10, DEFAULT_REGIME)!;
    const edge = thresholdProblem("SAM's train accuracy", 0.985, 0.99, 0.01, 'unused')!;
    const collapsed = collapseProblem(row({ label: 'L1', testAccuracy: 0.1 }), noWarnings, 10, DEFAULT_REGIME)!;
    const far = convergenceProblem(row({ label: 'AdvReg', testAccuracy: 0.3 }), row({ testAccuracy: 0.6 }), {
      rows: ['AdvReg'],
      maxTestDrop: 0.05,
      why: 'ours',
    })!;
    const inert = comparatorProblem(row({ label: 'Dropout', maxAdvantage: 0.3 }), row({ maxAdvantage: 0.2 }))!;
    expect([saturated, regime, edge, collapsed, far, inert].map((r) => needOfReason(r).kind)).toEqual([
      'saturated',
      'not in regime',
      'not in regime',
      'collapsed',
      'not in regime',
      'comparator ineffective',
    ]);
    // The evidence of an undecided claim leads with "not testable at this scale: ".
    expect(needOfReason(`not testable at this scale: ${saturated}`).kind).toBe('saturated');
    // The first problem decides: a regime problem before a collapse ("…; L1 collapsed (…)").
    expect(needOfReason(`${regime}; ${collapsed}`).kind).toBe('not in regime');
  });

  it('reads a missing dataset (with the column it names, if any), an out-of-scope run and a paper-scale-only group', () => {
    expect(needOfReason(CIFAR100_MISSING)).toEqual({ kind: 'dataset not available here', reason: expect.stringMatching(/^not run: dataset not available/) });
    expect(needOfReason(`CIFAR-100: ${CIFAR100_MISSING}`)).toMatchObject({ kind: 'dataset not available here', column: 'CIFAR-100' });
    expect(needOfReason(IMAGENET).kind).toBe('paper-scale compute');
    expect(needOfReason('not run here').kind).toBe('paper-scale compute');
  });

  it('gives any other reason as "other" with its first clause, at most 120 characters', () => {
    expect(needOfReason('no X setting keeps validation accuracy within 1.0 point; the best has 36 %')).toEqual({
      kind: 'other',
      reason: 'no X setting keeps validation accuracy within 1.0 point',
    });
    const long = needOfReason(`not testable at this scale: ${'a'.repeat(200)}`).reason;
    expect(long).toHaveLength(120);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('claimNeeds', () => {
  const holds = compareEstimates({ value: 0.6, se: 0.01 }, { value: 0.5, se: 0.01 }, { direction: 'greater', format: 'pct' });
  const noise = compareEstimates({ value: 0.51, se: 0.01 }, { value: 0.5, se: 0.01 }, { direction: 'greater', format: 'pct' });
  const shown = compareEstimates({ value: 0.6, se: 0.01, seSource: 'parameters' }, { value: 0.5, se: 0.01 }, { direction: 'greater', format: 'pct' });

  it('takes the need of a decision from its data before its reason', () => {
    expect([holds.verdict, noise.verdict, shown.verdict]).toEqual(['holds', 'within noise', 'not testable']);
    expect(decisionNeed(holds)).toBeUndefined();
    expect(decisionNeed(noise)?.kind).toBe('within noise');
    expect(decisionNeed(shown)?.kind).toBe('training seeds');
  });

  it('lists the needs of every column that neither holds nor fails, grouped by kind in a fixed order, stale first', () => {
    const columns: ColumnDecision[] = [
      { ...holds, column: 'Purchase' },
      undecidedColumn('Texas', 'not-testable', 'saturated (undefended loss AUC 1.000 ≥ 0.99: no defense effect can show)'),
      undecidedColumn('CIFAR-100', 'not-run', CIFAR100_MISSING),
      undecidedColumn('ImageNet', 'not-run', IMAGENET),
      { ...noise, column: 'CIFAR-10' },
      undecidedColumn('SVHN', 'not-run', CIFAR100_MISSING),
      undecidedColumn('L1', 'not-evaluated', 'cells missing'),
    ];
    const claim: Claim = { statement: 's', verdict: 'within noise', evidence: 'e', columns };
    expect(needsLine(claimNeeds(claim, true))).toBe(
      'stale results (re-run needed); within noise (needs more seeds/examples): CIFAR-10; dataset not available here: CIFAR-100, SVHN; paper-scale compute (out of scope here): ImageNet; saturated: Texas; other: cells missing on L1',
    );
    expect(claimNeeds(claim).map((n) => n.kind)).toEqual(['within noise', 'dataset not available here', 'paper-scale compute', 'saturated', 'other']);
  });

  it('reads a claim without decisions from its verdict and evidence', () => {
    expect(claimNeeds({ verdict: 'not evaluated', evidence: `CIFAR-100: ${CIFAR100_MISSING}` })).toEqual([
      { kind: 'dataset not available here', columns: ['CIFAR-100'] },
    ]);
    expect(claimNeeds({ verdict: 'within noise', evidence: '0.51 vs 0.50' })).toEqual([{ kind: 'within noise', columns: [] }]);
    expect(claimNeeds({ verdict: 'holds', evidence: '0.6 vs 0.5' })).toEqual([]);
    expect(claimNeeds({ verdict: 'partial', evidence: 'partial (old rules)' })[0]).toMatchObject({
      kind: 'other',
      reason: expect.stringMatching(/^no per-column decisions/),
    });
  });
});
