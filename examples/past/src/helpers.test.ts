import type { DefenseRow, ExperimentResults } from '@mia/experiments';
import { describe, expect, it } from 'vitest';
import { attackAdvantage, averageAdvantage, gridRows, rowMetricTable } from './helpers';

// Hand-made rows: only the fields the helpers read matter.
const row = (label: string, testAccuracy: number, advantages: Record<string, number>): DefenseRow =>
  ({
    label,
    testAccuracy,
    attacks: Object.entries(advantages).map(([attack, advantage]) => ({ attack, advantage })),
  }) as unknown as DefenseRow;
const results = (rows: DefenseRow[]) => ({ rows }) as unknown as ExperimentResults;

const base = row('w/o', 0.5, { loss: 0.3, entropy: 0.1 });
const a1 = row('PAST alpha=1', 0.52, { loss: 0.2, entropy: 0.0 });
const a2 = row('PAST alpha=2', 0.45, { loss: 0.05, entropy: 0.05 });
const other = row('PASTX', 0.9, { loss: 0.0, entropy: 0.0 });

describe('advantage helpers', () => {
  it('average and per-attack advantage (known answers: (0.3 + 0.1) / 2 = 0.2)', () => {
    expect(averageAdvantage(base)).toBeCloseTo(0.2, 12);
    expect(attackAdvantage(base, 'loss')).toBe(0.3);
    expect(attackAdvantage(base, 'nn-mlh')).toBeNaN();
  });

  it('gridRows picks the swept points of one label only', () => {
    expect(gridRows(results([base, a1, a2, other]), 'PAST').map((r) => r.label)).toEqual(['PAST alpha=1', 'PAST alpha=2']);
    expect(gridRows({ notRun: 'not run: x' }, 'PAST')).toEqual([]);
  });
});

describe('rowMetricTable', () => {
  it('puts defenses in rows and metrics in columns, with the paper beside ours and reasons for gaps', () => {
    const table = rowMetricTable({
      title: 'T',
      run: results([base, a1]),
      format: 'pct',
      rows: { 'w/o': 'w/o', PAST: 'PAST alpha=1', Missing: 'nope', Dropout: { notRun: 'not run: no dropout' } },
      columns: { acc: (r) => r.testAccuracy, nn: (r) => attackAdvantage(r, 'nn-mlh') },
      paper: { PAST: { acc: 0.6 } },
    });
    expect(table.columns).toEqual(['acc', 'nn']);
    expect(table.rows.map((r) => r.cells)).toEqual([
      [{ ours: 0.5 }, { notRun: 'not run: no value' }],
      [{ ours: 0.52, paper: 0.6 }, { notRun: 'not run: no value' }],
      [{ notRun: 'not run: no defense labelled "nope" in this run' }, { notRun: 'not run: no defense labelled "nope" in this run' }],
      [{ notRun: 'not run: no dropout' }, { notRun: 'not run: no dropout' }],
    ]);
    const missing = rowMetricTable({
      title: 'T',
      run: { notRun: 'not run: dataset not available' },
      rows: { a: 'a' },
      columns: { acc: (r) => r.testAccuracy },
      format: 'num',
    });
    expect(missing.rows[0]!.cells).toEqual([{ notRun: 'not run: dataset not available' }]);
  });
});
