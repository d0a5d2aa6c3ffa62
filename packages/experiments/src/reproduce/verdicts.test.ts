import { describe, expect, it } from 'vitest';
import { fakeResults, fakeRow, fakeSe } from '../test-utils/reproduction-fixtures';
import { claimForEveryColumn, compareRows, regimeGate } from './column-claims';
import { rowMetrics } from './row-metrics';
import { metricTable } from './table-helpers';
import { regime, testabilityProblem } from './testability';
import { trendClaim } from './trend-claims';
import type { RunOutcome } from './types';
import { combineColumns, compareEstimates } from './verdicts';

const REGIME = regime({ why: 'test' });
// In regime: train 100 %, test 60 % (≥ 3 × 10 %), gap 40 points.
const base = (o: { p1: number; se?: number; train?: number; test?: number }) =>
  fakeRow('w/o', { train: o.train ?? 1, test: o.test ?? 0.6, p1: o.p1, se: fakeSe(o.se ?? 0.01) });
const defended = (o: { p1: number; se?: number; test?: number }) => fakeRow('D', { train: 0.9, test: o.test ?? 0.58, p1: o.p1, se: fakeSe(o.se ?? 0.01) });

function claimOn(runs: Record<string, RunOutcome>) {
  const table = metricTable({ title: 'P1', runs, rows: ['D', 'w/o'], metric: rowMetrics.p1, format: 'num' });
  return claimForEveryColumn({
    table,
    statement: 'P1(D) > P1(w/o) on every dataset',
    rowA: 'D',
    rowB: 'w/o',
    direction: 'greater',
    gate: regimeGate({ runs, undefended: 'w/o', compared: ['D', 'w/o'], regime: REGIME }),
  });
}

describe('compareEstimates', () => {
  it('holds beyond 2 SE, does not hold beyond 2 SE the other way, else within noise; prints Δ ± SE and 2 SE', () => {
    const d = compareEstimates({ value: 0.784, se: 0.015 }, { value: 0.638, se: 0.015 }, { direction: 'greater', format: 'num' });
    expect(d.verdict).toBe('holds');
    expect(d.evidence).toBe('0.784 vs 0.638, Δ = +0.146 ± 0.021 (2 SE = 0.042)');
    expect(compareEstimates({ value: 0.6, se: 0.02 }, { value: 0.7, se: 0.02 }, { direction: 'greater', format: 'num' }).verdict).toBe('does not hold');
    expect(compareEstimates({ value: 0.66, se: 0.02 }, { value: 0.64, se: 0.02 }, { direction: 'greater', format: 'num' }).verdict).toBe('within noise');
    // 'less' and an offset: "A ≥ B − 2 points" with A 1 point below B and tiny SEs holds.
    expect(compareEstimates({ value: 0.5, se: 0.001 }, { value: 0.6, se: 0.001 }, { direction: 'less', format: 'pct' }).evidence).toMatch(
      /50\.0 vs 60\.0, Δ = −10\.0 ± 0\.1/,
    );
    const ni = compareEstimates({ value: 0.59, se: 0.001 }, { value: 0.6, se: 0.001 }, { direction: 'greater', offset: -0.02, format: 'pct' });
    expect(ni.verdict).toBe('holds');
    expect(ni.evidence).toMatch(/against the allowed −2\.0/);
  });

  it('is not testable without an SE, and names a binomial SE source', () => {
    expect(compareEstimates({ value: 1 }, { value: 0, se: 0.1 }, { direction: 'greater', format: 'num' }).verdict).toBe('not testable');
    expect(compareEstimates({ value: 1, se: 0.1, seSource: 'binomial' }, { value: 0, se: 0.1 }, { direction: 'greater', format: 'num' }).evidence).toMatch(
      /binomial approximation/,
    );
  });
});

describe('claimForEveryColumn with the regime gate', () => {
  it('holds when every column holds beyond 2 SE', () => {
    const c = claimOn({ A: fakeResults([base({ p1: 0.6 }), defended({ p1: 0.7 })]), B: fakeResults([base({ p1: 0.5 }), defended({ p1: 0.6 })]) });
    expect(c.verdict).toBe('holds');
    expect(c.evidence).toMatch(/^A: holds — D vs w\/o 0\.700 vs 0\.600, Δ = \+0\.100 ± 0\.014 \(2 SE = 0\.028\); B: holds/);
  });

  it('does not hold when a column goes the other way beyond 2 SE', () => {
    expect(claimOn({ A: fakeResults([base({ p1: 0.6 }), defended({ p1: 0.7 })]), B: fakeResults([base({ p1: 0.7 }), defended({ p1: 0.6 })]) }).verdict).toBe(
      'does not hold',
    );
  });

  it('is within noise when a difference is below 2 SE', () => {
    expect(claimOn({ A: fakeResults([base({ p1: 0.6, se: 0.03 }), defended({ p1: 0.65, se: 0.03 })]) }).verdict).toBe('within noise');
  });

  it('is not testable when the undefended model is out of regime or a compared model collapsed, with the reason', () => {
    // Undefended test accuracy 11.7 % on 10 classes (< 3× chance): CCL's CIFAR-10 column in the committed results.
    const atChance = claimOn({ A: fakeResults([base({ p1: 0.2, test: 0.117 }), defended({ p1: 0.3, test: 0.123 })]) });
    expect(atChance.verdict).toBe('not testable');
    expect(atChance.evidence).toMatch(/undefended test accuracy 11\.7 % < 3× chance \(30\.0 %\)/);
    const lowTrain = claimOn({ A: fakeResults([base({ p1: 0.5, train: 0.7 }), defended({ p1: 0.9 })]) });
    expect(lowTrain.evidence).toMatch(/undefended train accuracy 70\.0 % < 90\.0 %/);
    const collapsed = claimOn({ A: fakeResults([base({ p1: 0.5 }), defended({ p1: 0.9, test: 0.12 })]) });
    expect(collapsed.verdict).toBe('not testable');
    expect(collapsed.evidence).toMatch(/D collapsed \(test accuracy 12\.0 % ≤ 1\.5× chance, 15\.0 %\)/);
    const diverged = claimOn({ A: fakeResults([base({ p1: 0.5 }), defended({ p1: 0.9 })], { warnings: ['D target diverged: its mean loss …'] }) });
    expect(diverged.evidence).toMatch(/D failed \(D target diverged\)/);
  });

  it('is not testable when a model that must fit (`fitted`) did not, and testable once it does', () => {
    const lowFit = fakeResults([base({ p1: 0.5 }), defended({ p1: 0.9 })]);
    // defended(): train 90 % — fits at the default 90 % bound; a stricter regime makes it not fit.
    expect(testabilityProblem({ results: lowFit, undefended: 'w/o', compared: ['D'], fitted: ['D'], regime: REGIME })).toBeUndefined();
    const strict = regime({ why: 'test', minTrainAccuracy: 0.95 });
    expect(
      testabilityProblem({
        results: fakeResults([base({ p1: 0.5 }), defended({ p1: 0.9 })]),
        undefended: 'w/o',
        compared: ['D'],
        fitted: ['D'],
        regime: strict,
      }),
    ).toBe('D did not fit its training set (train accuracy 90.0 % < 95.0 %)');
    // Without `fitted`, the same low train accuracy of a compared model is allowed (defenses may lower it).
    expect(
      testabilityProblem({ results: fakeResults([base({ p1: 0.5 }), defended({ p1: 0.9 })]), undefended: 'w/o', compared: ['D'], regime: strict }),
    ).toBeUndefined();
  });

  it('is not evaluated when a comparator row or every run is missing (never holds)', () => {
    const noRow = claimOn({ A: fakeResults([base({ p1: 0.5 })]) });
    expect(noRow.verdict).toBe('not evaluated');
    expect(noRow.evidence).toMatch(/no defense labelled "D"/);
    expect(claimOn({ A: { notRun: 'not run: dataset not available' } }).verdict).toBe('not evaluated');
  });

  it('is partial when only a strict subset of the columns is decided, listing each column', () => {
    const c = claimOn({
      A: fakeResults([base({ p1: 0.6 }), defended({ p1: 0.7 })]),
      B: fakeResults([base({ p1: 0.2, test: 0.117 }), defended({ p1: 0.3 })]),
      C: { notRun: 'not run: dataset not available' },
    });
    expect(c.verdict).toBe('partial');
    expect(c.evidence).toMatch(
      /^decided on 1 of 3 columns; A: holds — .*; B: not testable — not testable at this scale: undefended test accuracy .*; C: not evaluated — not run: dataset not available$/,
    );
  });

  it('uses a binomial approximation for results without bootstrap SEs and says so', () => {
    const old = (label: string, test: number, p1: number) => fakeRow(label, { train: 1, test, p1, adv: 0.2 });
    const c = claimOn({ A: fakeResults([old('w/o', 0.6, 0.5), old('D', 0.6, 0.7)], { n: 500 }) });
    expect(c.verdict).toBe('holds');
    expect(c.evidence).toMatch(/binomial approximation sqrt\(p\(1−p\)\/n\) \(results without bootstrap SEs\)/);
    // The accuracy's binomial SE is sqrt(p(1 − p)/n) with n the target_test size.
    expect(rowMetrics.testAccuracy.estimate(old('w/o', 0.6, 0), fakeResults([], { n: 500 })).se).toBeCloseTo(Math.sqrt(0.24 / 500), 12);
  });
});

describe('compareRows', () => {
  it('gates, compares and reports a missing comparator', () => {
    const run = fakeResults([base({ p1: 0.5 }), defended({ p1: 0.7 })]);
    const o = {
      statement: 's',
      run,
      rowA: 'D',
      rowB: 'w/o',
      metric: rowMetrics.p1,
      direction: 'greater' as const,
      format: 'num' as const,
      regime: REGIME,
      undefended: 'w/o',
    };
    expect(compareRows(o).verdict).toBe('holds');
    expect(compareRows({ ...o, rowA: 'E' }).verdict).toBe('not evaluated');
    expect(compareRows({ ...o, run: { notRun: 'not run: x' } }).evidence).toBe('not run: x');
    expect(compareRows({ ...o, run: fakeResults([base({ p1: 0.5, test: 0.1 }), defended({ p1: 0.7 })]) }).verdict).toBe('not testable');
  });
});

describe('combineColumns', () => {
  it('is not testable when no column is decided and one is not testable, not evaluated when none ran', () => {
    expect(
      combineColumns('s', [
        { column: 'A', verdict: 'not testable', evidence: 'x' },
        { column: 'B', verdict: 'not evaluated', evidence: 'y' },
      ]).verdict,
    ).toBe('not testable');
    expect(combineColumns('s', [{ column: 'A', verdict: 'not evaluated', evidence: 'y' }]).verdict).toBe('not evaluated');
    expect(
      combineColumns('s', [
        { column: 'A', verdict: 'holds', evidence: '' },
        { column: 'B', verdict: 'within noise', evidence: '' },
      ]).verdict,
    ).toBe('within noise');
  });
});

describe('trendClaim', () => {
  const pts = (ys: number[]) => ys.map((y, i) => ({ x: i, y }));
  const t = (ys: number[] | { missing: string }, direction: 'increasing' | 'decreasing' = 'decreasing') =>
    trendClaim({ statement: 's', points: Array.isArray(ys) ? pts(ys) : ys, direction, format: 'num', knob: 'α' });

  it('holds for a significant trend in the claimed direction, does not hold the other way, else within noise', () => {
    const down = t([0.5, 0.4, 0.3, 0.2, 0.1]);
    expect(down.verdict).toBe('holds');
    expect(down.evidence).toMatch(/^Kendall τ = −1\.00 over 5 points, p = 0\.017 \(exact; significant below 0\.05\); α 0: 0\.500/);
    expect(t([0.1, 0.2, 0.3, 0.4, 0.5]).verdict).toBe('does not hold');
    expect(t([0.5, 0.4, 0.3, 0.1, 0.2]).verdict).toBe('within noise'); // τ = −0.8, p = 0.083
  });

  it('is not testable when the points are too few for any ordering to be significant (4 points: p ≥ 2/4! = 0.083)', () => {
    const four = t([0.4, 0.3, 0.2, 0.1]);
    expect(four.verdict).toBe('not testable');
    expect(four.evidence).toMatch(
      /^not testable at this scale: 4 non-collapsed points cannot show a trend at p < 0\.05 \(a perfect ordering gives p = 2\/4! = 0\.083/,
    );
    expect(t([0.3, 0.2, 0.1]).verdict).toBe('not testable');
  });

  it('leaves collapsed points out, is not testable under 3 points and not evaluated when the sweep is missing', () => {
    const c = trendClaim({
      statement: 's',
      points: [
        { x: 0, y: 0.5 },
        { x: 1, y: 0.4 },
        { x: 2, y: 0.01, collapsed: 'collapsed (1.2 %)' },
      ],
      direction: 'decreasing',
      format: 'num',
      knob: 'α',
    });
    expect(c.verdict).toBe('not testable');
    expect(c.evidence).toMatch(/2 non-collapsed point\(s\), a trend needs ≥ 3 .*left out: α 2: collapsed \(1\.2 %\)/);
    expect(t({ missing: 'not run: x' }).verdict).toBe('not evaluated');
    expect(
      trendClaim({ statement: 's', points: pts([3, 2, 1]), direction: 'decreasing', format: 'num', knob: 'α', gate: 'undefended out of regime' }).evidence,
    ).toBe('not testable at this scale: undefended out of regime');
  });
});

describe('verdictCounts', () => {
  it('counts every verdict, marks results before the testability gate, and refuses unknown verdicts', async () => {
    const { verdictCounts } = await import('./verdict-counts');
    const claims = (['holds', 'holds', 'does not hold', 'partial'] as const).map((verdict) => ({ statement: verdict, verdict, evidence: 'e' }));
    const old = verdictCounts({ name: 'x', claims });
    expect(old).toEqual({
      claims: 4,
      gated: false,
      verdicts: { holds: 2, 'does not hold': 1, 'within noise': 0, 'not testable': 0, 'not evaluated': 0, partial: 1 },
    });
    expect(verdictCounts({ name: 'x', claims, verdictRules: 2 }).gated).toBe(true);
    expect(() => verdictCounts({ name: 'x', claims: [{ statement: 's', verdict: 'fails' as never, evidence: '' }] })).toThrow(
      /claim "s" of x has verdict "fails", expected one of holds/,
    );
  });
});
