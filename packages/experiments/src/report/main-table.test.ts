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
    expect(d).toEqual(['D', '100.0', '60.0 ± 1.2', '0.000', '0.000', '20.0', '20.0 ± 1.2', '0.650 ± 0.012', '—', '—']);
    expect(old).toEqual(['old', '100.0', '60.0', '0.000', '0.000', '20.0', '20.0', '0.650', '—', '—']);
  });
});

type ExperimentResultsConfig = ReturnType<typeof fakeResults>['config'];
