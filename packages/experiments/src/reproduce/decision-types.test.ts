import { describe, expect, expectTypeOf, it } from 'vitest';
import { reproductionFromStored, storedReproduction } from './stored-reproduction';
import type { ColumnDecision, DecidedDecision, Decision, ReproductionResult, TableCell, UndecidedKind } from './types';
import { claimSummary, combineColumns, compareEstimates, isDecided, undecidedColumn } from './verdicts';

// The rules of docs/protocol.md §5.1 as types: `tsc --noEmit -p .` (which checks this file) fails when a
// `@ts-expect-error` below stops being an error, i.e. when the types allow what the rules forbid.
describe('decisions and cells are discriminated unions', () => {
  it('a decided decision cannot lack Δ, its SE or z; an undecided one cannot carry a margin', () => {
    const numbers = { a: 0.7, b: 0.6, direction: 'greater', offset: 0, format: 'num', seSource: 'test' } as const;
    // @ts-expect-error a decided comparison without `se`
    const noSe: Decision = { verdict: 'holds', evidence: 'e', ...numbers, delta: 0.1, z: 5 };
    // @ts-expect-error a decided column without `delta`
    const noDelta: ColumnDecision = { column: 'A', verdict: 'does not hold', evidence: 'e', ...numbers, se: 0.01, z: -5 };
    // @ts-expect-error an undecided decision with a standard error
    const undecidedWithSe: Decision = { verdict: 'not testable', kind: 'not-testable', evidence: 'e', reason: 'r', se: 0.01 };
    // @ts-expect-error an undecided decision without its kind
    const noKind: Decision = { verdict: 'not evaluated', evidence: 'e', reason: 'r' };
    // @ts-expect-error a not-run decision is "not evaluated", never "not testable"
    const mismatched: Decision = { verdict: 'not testable', kind: 'not-run', evidence: 'e', reason: 'r' };
    const decided: Decision = { verdict: 'holds', evidence: 'e', ...numbers, delta: 0.1, se: 0.01, z: 10 };
    expect([noSe, noDelta, undecidedWithSe, noKind, mismatched].map((d) => d.verdict)).toEqual([
      'holds',
      'does not hold',
      'not testable',
      'not evaluated',
      'not testable',
    ]);
    expect(isDecided(decided)).toBe(true);
    expectTypeOf<DecidedDecision['se']>().toEqualTypeOf<number>();
    expectTypeOf<DecidedDecision['delta']>().toEqualTypeOf<number>();
    expectTypeOf<Extract<Decision, { readonly kind: UndecidedKind }>['se']>().toEqualTypeOf<undefined>();
  });

  it('isDecided narrows a decision to one with a numeric Δ and SE', () => {
    const d: Decision = compareEstimates({ value: 0.7, se: 0.01 }, { value: 0.6, se: 0.01 }, { direction: 'greater', format: 'num' });
    expectTypeOf(d.se).toEqualTypeOf<number | undefined>();
    if (!isDecided(d)) throw new Error('expected a decided comparison');
    expectTypeOf(d.se).toEqualTypeOf<number>();
    expect([d.verdict, d.delta, d.se]).toEqual(['holds', expect.closeTo(0.1, 12), expect.closeTo(Math.SQRT2 * 0.01, 12)]);
  });

  it('a cell has our value or why it is missing, never both; per-seed values come with their seeds', () => {
    // @ts-expect-error a cell with our value and a reason for its absence
    const both: TableCell = { ours: 0.5, notRun: 'not run: x' };
    // @ts-expect-error a cell with neither
    const neither: TableCell = { paper: 0.5 };
    // @ts-expect-error each seed's value without the seeds
    const perSeedOnly: TableCell = { ours: 0.5, perSeed: [0.4, 0.6] };
    // @ts-expect-error a missing cell with a standard error
    const missingWithSe: TableCell = { notRun: 'not run: x', se: 0.01 };
    const cells: TableCell[] = [
      { ours: 0.5, perSeed: [0.4, 0.6], seeds: [0, 1] },
      { notRun: 'not run: x', paper: 0.5 },
    ];
    expect([both, neither, perSeedOnly, missingWithSe, ...cells].map((c) => c.ours)).toEqual([0.5, undefined, 0.5, undefined, 0.5, undefined]);
  });
});

describe('verdicts carry their class', () => {
  it("groups undecided columns by their kind, not by their reason's wording", () => {
    // Worded like a run that did not happen, but a missing comparator: the kind says so.
    const claim = combineColumns('s', [
      undecidedColumn('A', 'not-evaluated', 'not run yet: no comparator'),
      undecidedColumn('B', 'not-run', 'not run: no data'),
    ]);
    expect(claimSummary(claim)).toBe('not evaluated: not run on B; not evaluated on A');
    expect(claim.columns!.map((c) => [c.verdict, c.kind])).toEqual([
      ['not evaluated', 'not-evaluated'],
      ['not evaluated', 'not-run'],
    ]);
  });

  it('shows a comparison over one model without deciding it, as such', () => {
    const d = compareEstimates({ value: 0.9, se: 0.001, seSource: 'parameters' }, { value: 0.1, se: 0.001 }, { direction: 'greater', format: 'num' });
    expect([d.verdict, d.kind]).toEqual(['not testable', 'shown-not-decided']);
    const noSe = compareEstimates({ value: 0.9 }, { value: 0.1, se: 0.001 }, { direction: 'greater', format: 'num' });
    expect([noSe.verdict, noSe.kind]).toEqual(['not testable', 'not-testable']);
  });
});

describe('the stored form of a result (reproduction.json)', () => {
  const columns = [
    { column: 'A', ...compareEstimates({ value: 0.7, se: 0.01 }, { value: 0.6, se: 0.01 }, { direction: 'greater', format: 'num' }) },
    undecidedColumn('B', 'not-run', 'not run: dataset not available'),
    undecidedColumn('C', 'not-evaluated', 'no row "D"'),
    undecidedColumn('D', 'not-testable', 'undefended out of regime'),
    { column: 'E', ...compareEstimates({ value: 0.9, se: 0.001, seSource: 'sample' }, { value: 0.1, se: 0.001 }, { direction: 'greater', format: 'num' }) },
  ];
  const result = { format: 'mia-reproduction-1', name: 'x-table1', claims: [combineColumns('s', columns)] } as unknown as ReproductionResult;

  it('keeps every field but the kinds, in order, and reads the kinds back from the wording', () => {
    const stored = storedReproduction(result);
    const text = JSON.stringify(stored);
    expect(text).not.toContain('"kind"');
    expect(Object.keys(stored.claims[0]!.columns![1]!)).toEqual(['column', 'verdict', 'reason', 'evidence']);
    const read = reproductionFromStored(JSON.parse(text) as typeof stored);
    expect(read.claims[0]!.columns!.map((c) => c.kind)).toEqual([undefined, 'not-run', 'not-evaluated', 'not-testable', 'shown-not-decided']);
    expect(read).toEqual(result);
    expect(JSON.stringify(storedReproduction(read))).toBe(text);
    // Read without it, the undecided columns would have no kind: said, not silently left out.
    expect(() => claimSummary((JSON.parse(text) as ReproductionResult).claims[0]!)).toThrow(
      'claimSummary: every undecided column must say why (its kind), got none for "B" (read a stored reproduction.json with reproductionFromStored)',
    );
    expect(claimSummary(read.claims[0]!)).toBe('partial: holds on A; not testable on D, E; not run on B; not evaluated on C');
  });
});
