import { describe, expect, it } from 'vitest';
import { pairedDifferenceSe, pairedMetricKey, type PairedMetric, type PairedSeTable } from '../run/paired-se';
import type { ExperimentResults } from '../run/results';
import { fakeResults, fakeRow, fakeSe } from '../test-utils/reproduction-fixtures';
import { rowMetrics } from './row-metrics';
import { aggregateSeeds, combineSeeds, pairedEstimates, parsePairedMetricKey, rowValue } from './seeds';
import { compareEstimates } from './verdicts';
import { claimForEveryColumn, pairedColumnSe } from './column-claims';
import { tableMarkdown } from './reproduction-report';
import { cellOf, metricTable } from './table-helpers';

/** A paired table of rows A, B with the same paired SE for every metric (the one pair). */
const pairTable = (se: number): PairedSeTable => ({
  method: 'paired-bootstrap',
  resamples: 200,
  rows: ['A', 'B'],
  se: Object.fromEntries(['trainAccuracy', 'testAccuracy', 'lossGap', 'maxAdvantage', 'p1', 'adv:loss', 'auc:loss'].map((k) => [k, [se]])),
});
/** One seed's run: test accuracies of A and B, bootstrap SE 0.005 per row and paired SE 0.005 of A − B. */
const seedRun = (a: number, b: number): ExperimentResults => ({
  ...fakeResults([fakeRow('A', { train: 1, test: a, se: fakeSe(0.005) }), fakeRow('B', { train: 1, test: b, se: fakeSe(0.005) })]),
  pairedSe: pairTable(0.005),
});
const greater = { direction: 'greater', format: 'pct' } as const;
const pairedDecision = (results: ExperimentResults) => {
  const e = pairedEstimates(results, 'A', 'B', 'testAccuracy')!;
  return compareEstimates(e.a, e.b, greater);
};

describe('paired metrics', () => {
  it('are data; their stored key is read back only at the JSON boundary', () => {
    const metrics: PairedMetric[] = ['p1', 'maxAdvantage', { attack: 'loss', which: 'advantage' }, { attack: 'a:b', which: 'auc' }];
    // The keys results.json stores (run/paired-se.ts), and back.
    expect(metrics.map(pairedMetricKey)).toEqual(['p1', 'maxAdvantage', 'adv:loss', 'auc:a:b']);
    expect(metrics.map((m) => parsePairedMetricKey(pairedMetricKey(m)))).toEqual(metrics);
    expect(() => parsePairedMetricKey('gap')).toThrow(
      'parsePairedMetricKey: key must be one of trainAccuracy, testAccuracy, lossGap, maxAdvantage, p1, adv:<attack> or auc:<attack>, got "gap"',
    );
    expect(() => parsePairedMetricKey('tpr:loss')).toThrow(/got "tpr:loss"/);
    const row = fakeRow('w/o', { train: 1, test: 0.6, p1: 0.5, adv: 0.2 });
    expect(rowValue(row, 'p1')).toBe(0.5);
    expect(rowValue(row, { attack: row.attacks[0]!.attack, which: 'advantage' })).toBe(row.attacks[0]!.advantage);
    expect(rowValue(row, { attack: 'no such attack', which: 'auc' })).toBeNaN();
  });
});

describe('combineSeeds', () => {
  it('adds the between-seed variance over k to the mean squared bootstrap SE (hand calculation)', () => {
    // mean 0.2; s² = ((−0.1)² + 0.1²)/1 = 0.02, s²/k = 0.01; mean(b²) = (0.01² + 0.02²)/2 = 0.00025.
    const c = combineSeeds([0.1, 0.3], [0.01, 0.02]);
    expect(c.value).toBeCloseTo(0.2, 12);
    expect(c.se).toBeCloseTo(Math.sqrt(0.01025), 12);
    // Identical seeds: only the bootstrap, not divided by k (the evaluation examples are shared).
    expect(combineSeeds([0.5, 0.5, 0.5], [0.03, 0.03, 0.03]).se).toBeCloseTo(0.03, 12);
    expect(combineSeeds([0.7], [0.02])).toEqual({ value: 0.7, se: 0.02, df: Infinity });
  });
  it('gives the SE Welch–Satterthwaite degrees of freedom: k − 1 when the seeds dominate, large when the bootstrap does', () => {
    // s²/k = 0.01 with k − 1 = 1 df, mean(b²) = 0.00025 large-sample: df = 1 · (0.01025 / 0.01)² = 1.050625.
    expect(combineSeeds([0.1, 0.3], [0.01, 0.02]).df).toBeCloseTo(1.050625, 12);
    // No seed spread: only the bootstrap term, whose degrees of freedom are unbounded.
    expect(combineSeeds([0.5, 0.5, 0.5], [0.03, 0.03, 0.03]).df).toBe(Infinity);
    // Three seeds, spread 10× the bootstrap SE: s²/k = 0.01/3, mean(b²) = 1e-4, df = 2 · ((0.01/3 + 1e-4) / (0.01/3))² = 2.1218.
    expect(combineSeeds([0.4, 0.5, 0.6], [0.01, 0.01, 0.01]).df).toBeCloseTo(2 * ((0.01 / 3 + 1e-4) / (0.01 / 3)) ** 2, 10);
  });
  it('names a bad argument', () => {
    expect(() => combineSeeds([], [])).toThrow('combineSeeds: values must hold at least one value, got 0');
    expect(() => combineSeeds([1, 2], [0.1])).toThrow('combineSeeds: bootstrapSes must have one SE per value (2), got 1');
  });
});

describe('aggregateSeeds', () => {
  it('a difference beyond 2 paired SEs with every seed but within the seed spread comes out "within noise"', () => {
    // Δ = +10.0 and +2.0 points, each beyond 2 × 0.5: "holds" seed by seed.
    const runs = [seedRun(0.8, 0.7), seedRun(0.72, 0.7)];
    for (const run of runs) expect(pairedDecision(run).verdict).toBe('holds');
    const agg = aggregateSeeds(runs, [3, 4]);
    // s_d² = (0.04² + 0.04²)/1 = 0.0032; SE² = 0.0032/2 + 0.005² = 0.001625.
    expect(pairedDifferenceSe(agg, 'A', 'B', 'testAccuracy')).toBeCloseTo(Math.sqrt(0.001625), 4);
    const decision = pairedDecision(agg);
    expect(decision.verdict).toBe('within noise');
    // df = 1 · (0.001625 / 0.0016)² = 1.0315 (stored to 4 digits): two seeds leave one degree of freedom, so the critical value is a t quantile, not 2.
    expect(decision.df).toBeCloseTo(1.031, 3);
    expect(decision.critical).toBeGreaterThan(10);
    expect(decision.evidence).toMatch(/^76\.0 vs 70\.0, Δ = \+6\.0 ± 4\.0 \(t\(1\.0 df\) critical \d+\.\d\d × SE = \d+\.\d; SE from repeated seeds\)$/);
    // The rows' own SEs combine the same way: the unpaired comparison is within noise as well.
    const [a, b] = agg.rows.map((r) => rowMetrics.testAccuracy.estimate(r, agg));
    expect(a!.seSource).toBe('seeds');
    expect(compareEstimates(a!, b!, greater).verdict).toBe('within noise');
  });

  it('a difference consistent across seeds holds with the combined SE', () => {
    const agg = aggregateSeeds([seedRun(0.76, 0.7), seedRun(0.762, 0.7)], [3, 4]);
    // s_d² = 2·0.001²/1 = 2e-6; SE² = 1e-6 + 2.5e-5.
    expect(pairedDifferenceSe(agg, 'A', 'B', 'testAccuracy')).toBeCloseTo(Math.sqrt(2.6e-5), 6);
    expect(pairedDecision(agg).verdict).toBe('holds');
  });

  it('rows carry the means, the combined SEs and each seed’s numbers; k = 1 is the run itself', () => {
    const runs = [seedRun(0.8, 0.7), seedRun(0.72, 0.7)];
    const agg = aggregateSeeds(runs, [3, 4]);
    expect(agg.trainingSeeds).toEqual([3, 4]);
    const a = agg.rows[0]!;
    expect(a.testAccuracy).toBeCloseTo(0.76, 12);
    expect(a.se!.method).toBe('seeds+bootstrap');
    expect(a.se!.testAccuracy).toBeCloseTo(Math.sqrt(0.0032 / 2 + 0.005 ** 2), 12);
    // Identical values across seeds: only the bootstrap SE.
    expect(a.se!.trainAccuracy).toBeCloseTo(0.005, 12);
    expect(a.seeds!.map((s) => [s.trainingSeed, s.testAccuracy, s.attacks.loss!.advantage])).toEqual([
      [3, 0.8, 0],
      [4, 0.72, 0],
    ]);
    expect(agg.pairedSe!.method).toBe('seeds+paired-bootstrap');
    expect(agg.pairedSe!.seeds).toBe(2);
    const one = seedRun(0.8, 0.7);
    expect(aggregateSeeds([one], [3])).toBe(one);
  });

  it('refuses runs on different partitions or rows, naming the run', () => {
    const other = { ...seedRun(0.8, 0.7), partition: { preset: 'CCL4', sizes: {}, digest: 'y' } };
    expect(() => aggregateSeeds([seedRun(0.8, 0.7), other], [0, 1])).toThrow(
      'aggregateSeeds: every run must use the same partition (digest x), got y in runs[1] (training seed 1)',
    );
    const fewer = fakeResults([fakeRow('A', { train: 1, test: 0.5 })]);
    expect(() => aggregateSeeds([seedRun(0.8, 0.7), fewer], [0, 1])).toThrow('aggregateSeeds: every run must have the rows ["A","B"], got ["A"] in runs[1]');
    expect(() => aggregateSeeds([seedRun(0.8, 0.7)], [])).toThrow('aggregateSeeds: trainingSeeds must have one seed per run (1), got 0');
    expect(() => aggregateSeeds([seedRun(0.8, 0.7), seedRun(0.8, 0.7)], [2, 2])).toThrow('aggregateSeeds: trainingSeeds must be distinct, got [2,2]');
  });

  it("keeps every seed's validity findings (naming the seeds a finding came from when not all), every note once, the first baseline", () => {
    const finding = (code: 'references-too-few' | 'shadow-overlap', cause: string) => ({ code, cause, action: 'fix it', numbers: { n: 1 } });
    const baseline = { name: 'blind', auc: { estimate: 0.5, lower: 0.48, upper: 0.52 } } as never;
    const [a, b, c] = [seedRun(0.8, 0.7), seedRun(0.72, 0.7), seedRun(0.75, 0.7)];
    const withDoctor = (r: ExperimentResults, findings: ReturnType<typeof finding>[], notes: string[], base?: unknown) => ({
      ...r,
      doctor: { ...(base === undefined ? {} : { baseline: base as never }), findings, notes },
    });
    const agg = aggregateSeeds(
      [
        withDoctor(a, [finding('references-too-few', '2 references')], ['n1'], baseline),
        withDoctor(b, [finding('references-too-few', '2 references'), finding('shadow-overlap', '5 shared')], ['n1', 'n2']),
        c,
      ],
      [0, 1, 2],
    );
    expect(agg.doctor!.baseline).toBe(baseline);
    expect(agg.doctor!.findings.map((f) => [f.code, f.cause])).toEqual([
      ['references-too-few', 'training seeds 0, 1: 2 references'],
      ['shadow-overlap', 'training seed 1: 5 shared'],
    ]);
    expect(agg.doctor!.notes).toEqual(['n1', 'n2', 'training seed 2: results without a doctor (written before it), not checked']);
    // A finding of every seed keeps its cause; no doctor anywhere: none.
    const all = aggregateSeeds([withDoctor(a, [finding('shadow-overlap', 'x')], []), withDoctor(b, [finding('shadow-overlap', 'x')], [])], [0, 1]);
    expect(all.doctor!.findings.map((f) => f.cause)).toEqual(['x']);
    expect(aggregateSeeds([a, b], [0, 1]).doctor).toBeUndefined();
  });

  it('without paired SEs in some run (older results), has none', () => {
    const { pairedSe: _, ...old } = seedRun(0.72, 0.7);
    const agg = aggregateSeeds([seedRun(0.8, 0.7), old], [0, 1]);
    expect(agg.pairedSe).toBeUndefined();
    expect(pairedEstimates(agg, 'A', 'B', 'p1')).toBeUndefined();
  });
});

describe('seed-aware tables and claims', () => {
  it('cells show each seed’s value and the claim uses the seeds-combined paired SE of the column', () => {
    const agg = aggregateSeeds([seedRun(0.8, 0.7), seedRun(0.72, 0.7)], [3, 4]);
    const runs = { X: agg, Y: seedRun(0.8, 0.7), Z: { notRun: 'not run: no data' } };
    const table = metricTable({ title: 't', runs, rows: ['A', 'B'], metric: rowMetrics.testAccuracy, format: 'pct' });
    const cell = cellOf(table, 'A', 'X')!;
    expect(cell.perSeed).toEqual([0.8, 0.72]);
    expect(cell.seeds).toEqual([3, 4]);
    // One seed: no per-seed values.
    expect(cellOf(table, 'A', 'Y')!.perSeed).toBeUndefined();
    expect(tableMarkdown(table)).toContain('| A | 76.0 [seeds: 80.0, 72.0] | 80.0 | not run |');

    const differenceSe = pairedColumnSe(runs, 'A', 'B', 'testAccuracy');
    expect(differenceSe('X')!.se).toBeCloseTo(Math.sqrt(0.001625), 4);
    expect(differenceSe('X')!.source).toBe('paired bootstrap combined over 2 training seeds');
    expect(differenceSe('Y')).toEqual({ se: 0.005, source: 'paired bootstrap, one training seed' });
    expect(differenceSe('Z')).toBeUndefined();
    const claim = claimForEveryColumn({ table, statement: 'A > B', rowA: 'A', rowB: 'B', direction: 'greater', differenceSe });
    const byColumn = Object.fromEntries(claim.columns!.map((c) => [c.column, c.verdict]));
    // X: Δ +6.0 with the seed spread in the SE (4.0) → within noise; Y: Δ +10.0 with one seed's paired SE 0.5 → holds.
    expect(byColumn).toEqual({ X: 'within noise', Y: 'holds', Z: 'not evaluated' });
  });
});
