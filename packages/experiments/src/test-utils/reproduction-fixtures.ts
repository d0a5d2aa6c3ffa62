import type { DefenseRow, ExperimentResults, RowSe } from '../run/results';

/** A row with the given accuracies and max advantage (P1 left at 0; tests set what they compare). */
export function fakeRow(label: string, o: { train: number; test: number; adv?: number; p1?: number; se?: RowSe; lossGap?: number }): DefenseRow {
  return {
    defense: label,
    label,
    params: {},
    trainAccuracy: o.train,
    testAccuracy: o.test,
    lossGap: o.lossGap ?? 0,
    lossVariance: 0,
    attacks: [
      { attack: 'loss', accuracy: (1 + (o.adv ?? 0)) / 2, advantage: o.adv ?? 0, auc: 0.5 + (o.adv ?? 0) / 2, tprAtFpr: [], roc: { fpr: [], tpr: [] } },
    ],
    maxAdvantage: o.adv ?? 0,
    p1: o.p1 ?? 0,
    lossHistogram: { edges: [], members: [], nonMembers: [] },
    cache: { target: 'hit', shadow: 'hit' },
    trainSeconds: 0,
    ...(o.se === undefined ? {} : { se: o.se }),
  };
}

/** A bootstrap SE object with one SE for every number. */
export const fakeSe = (se: number): RowSe => ({
  method: 'bootstrap',
  resamples: 200,
  trainAccuracy: se,
  testAccuracy: se,
  lossGap: se,
  maxAdvantage: se,
  p1: se,
  attacks: { loss: { advantage: se, auc: se } },
});

/** Results of one run holding `rows` (10 classes unless said, 1000 members and non-members). */
export function fakeResults(rows: DefenseRow[], o: { classes?: number; warnings?: string[]; n?: number } = {}): ExperimentResults {
  const n = o.n ?? 1000;
  return {
    format: 'mia-results-1',
    config: {} as ExperimentResults['config'],
    dataset: { name: 'fake', source: 'stand-in', description: 'constructed', size: 4 * n, ...(o.classes === null ? {} : { classes: o.classes ?? 10 }) },
    partition: { preset: 'CCL4', sizes: { target_train: n, target_test: n }, digest: 'x' },
    backend: 'cpu',
    versions: {},
    startedAt: '2024-01-01T00:00:00.000Z',
    seconds: 0,
    rows,
    notes: [],
    ...(o.warnings === undefined ? {} : { warnings: o.warnings }),
  };
}
