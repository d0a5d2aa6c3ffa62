import { describe, expect, it } from 'vitest';
import { fakeResults, fakeRow, fakeSe } from '../test-utils/reproduction-fixtures';
import { mainTable } from './markdown-report';

describe('mainTable', () => {
  it('prints the bootstrap SE beside test accuracy, max advantage and P1 when the row has one, nothing otherwise', () => {
    const config = { attacks: ['loss'], paper: undefined } as unknown as ExperimentResultsConfig;
    const withSe = {
      ...fakeResults([
        fakeRow('D', { train: 1, test: 0.6, adv: 0.2, p1: 0.65, se: fakeSe(0.012) }),
        fakeRow('old', { train: 1, test: 0.6, adv: 0.2, p1: 0.65 }),
      ]),
      config,
    };
    const [d, old] = mainTable(withSe).rows;
    expect(d).toEqual(['D', '100.0', '60.0 ± 1.2', '0.000', '0.000', '20.0', '20.0 ± 1.2', '0.650 ± 0.012']);
    expect(old).toEqual(['old', '100.0', '60.0', '0.000', '0.000', '20.0', '20.0', '0.650']);
  });

  it('keeps a paper column only when the config gives a value for one of its rows ("—" for the others)', () => {
    const rows = [fakeRow('none', { train: 1, test: 0.6, adv: 0.2, p1: 0.65 }), fakeRow('CCQL', { train: 1, test: 0.6, adv: 0.1, p1: 0.7 })];
    const withP1 = {
      ...fakeResults(rows),
      config: { attacks: ['loss'], paper: { source: 'x', values: { CCQL: { p1: 0.71 } } } } as unknown as ExperimentResultsConfig,
    };
    const table = mainTable(withP1);
    expect(table.header.slice(-2)).toEqual(['P1', 'paper P1']);
    expect(table.rows.map((r) => r.at(-1))).toEqual(['—', '0.71']);
    const none = mainTable({ ...fakeResults(rows), config: { attacks: ['loss'], paper: { source: 'x', values: {} } } as unknown as ExperimentResultsConfig });
    expect(none.header.filter((h) => h.startsWith('paper'))).toEqual([]);
    expect(none.rows[0]).toHaveLength(none.header.length);
  });
});

type ExperimentResultsConfig = ReturnType<typeof fakeResults>['config'];
