import { isNotRun, type Estimate, type NotRun, type Reproduction, type ReproductionTable } from '@mia/experiments/reproduce';
import { attackAccuracyOf, claimOverColumns, columnRegimes, relativeChange, testAccuracyOf, generalisationProblem } from './column-claims';
import { DATASET_COLUMNS, coreDefenses, seedsAt, type DatasetColumn } from './configs';
import { plannedColumnRuns } from './column-runs';
import { evaluateColumns, type ColumnEvaluation } from './evaluate-columns';
import { TABLE2 } from './paper-values';
import { cellOf, mean, notRunCell, pct } from './table-cells';
import { evaluationNotes } from './table1';

/** Title, columns and rows of the reproduced Table 2. */
export const TABLE2_TITLE = 'Table 2: relative change of SAM and SharpReg vs SGD';
export const TABLE2_COLUMNS = ['Test acc diff', 'DSQ attack diff', 'Label-only attack diff'];
export const table2Rows = (): string[] => DATASET_COLUMNS.flatMap((d) => [`${d} · SAM`, `${d} · SharpReg`]);

/** Relative change `b/a − 1` of the means. */
const change = (b: number, a: number) => b / a - 1;

/** The three relative changes of one optimiser vs SGD: test accuracy, best DSQ, best label-only accuracy. */
function changes(c: ColumnEvaluation, algo: string): [number, number, number] {
  const [sgd, e] = [c.evaluations.SGD!, c.evaluations[algo]!];
  return [change(e.testAccuracy, sgd.testAccuracy), change(mean(e.bestSingle), mean(sgd.bestSingle)), change(mean(e.bestMulti), mean(sgd.bestMulti))];
}

/** Relative changes vs SGD (test, DSQ = best single-query, label-only = best multi-query) with delta-method SEs. */
function relChanges(c: ColumnEvaluation, algo: string): [Estimate, Estimate, Estimate] {
  const [sgd, e] = [c.evaluations.SGD!, c.evaluations[algo]!];
  return [
    relativeChange(testAccuracyOf(c, algo), testAccuracyOf(c, 'SGD')),
    relativeChange(attackAccuracyOf(c, e.bestSingle), attackAccuracyOf(c, sgd.bestSingle)),
    relativeChange(attackAccuracyOf(c, e.bestMulti), attackAccuracyOf(c, sgd.bestMulti)),
  ];
}

/** Zero with no uncertainty (a change compared with no change). */
const ZERO: Estimate = { value: 0, se: 0 };

/** Table 2 from the evaluations: relative change of Table 1's means vs SGD (the paper's "% change"). */
export function table2(columns: Readonly<Record<DatasetColumn, ColumnEvaluation | NotRun>>): ReproductionTable {
  const rows = table2Rows().map((label) => {
    const [column, algo] = label.split(' · ') as [DatasetColumn, string];
    const paper = TABLE2[label]!;
    const c = columns[column];
    if (isNotRun(c)) return { label, cells: paper.map((p) => notRunCell(c.notRun, p)) };
    return { label, cells: changes(c, algo).map((v, i) => cellOf(v, paper[i])) };
  });
  return {
    title: TABLE2_TITLE,
    columns: TABLE2_COLUMNS,
    rows,
    format: 'pct',
    caption:
      "Relative change in % of the Table 1 means vs SGD (e.g. +2.65 % = SAM's test accuracy is 1.0265 × SGD's); DSQ = best direct single-query attack, label-only = best multi-query attack.",
  };
}

/** SAM-privacy Table 2. */
export const samTable2: Reproduction = {
  name: 'sam-table2',
  regimes: columnRegimes(),
  paper: 'SAM-privacy (Kim et al., On memorization and privacy risks of sharpness aware minimization)',
  title: 'Table 2: % change of test accuracy and attack accuracy of SAM and SharpReg vs SGD',
  source: 'SAM-privacy (arXiv:2310.00488), Table 2',
  description: "The relative changes of Table 1's means (same models and attack splits as sam-table1; shared cache).",
  // Every run, known before any model is loaded (redecide compares their configs first).
  plan: ({ scale }) => plannedColumnRuns(scale, coreDefenses, 'core', seedsAt(scale)),
  async run(ctx) {
    const columns = await evaluateColumns(ctx, coreDefenses, 'core', seedsAt(ctx.scale));
    const claims = [
      claimOverColumns(
        'SAM increases test accuracy and DSQ attack accuracy vs SGD on every dataset (§5.2: "for all the datasets, we consistently find that SAM achieves increase in test accuracy but also displays increase in membership inference attack accuracy")',
        columns,
        (c) => {
          const [t, d] = relChanges(c, 'SAM');
          return {
            comparisons: [
              { label: 'test change', a: t, b: ZERO, direction: 'greater' },
              { label: 'DSQ change', a: d, b: ZERO, direction: 'greater' },
            ],
          };
        },
        undefined,
        ['SAM'],
        'privacy',
        generalisationProblem,
      ),
      claimOverColumns(
        'SharpReg lowers DSQ and label-only attack accuracy vs SGD by more than it lowers test accuracy, on every dataset (Table 2)',
        columns,
        (c) => {
          const [t, d, l] = relChanges(c, 'SharpReg');
          return {
            comparisons: [
              { label: 'DSQ change', a: d, b: ZERO, direction: 'less' },
              { label: 'label-only change', a: l, b: ZERO, direction: 'less' },
              { label: 'DSQ vs test change', a: d, b: t, direction: 'less' },
              { label: 'label-only vs test change', a: l, b: t, direction: 'less' },
            ],
          };
        },
        undefined,
        ['SharpReg'],
      ),
    ];
    return { tables: [table2(columns)], claims, notes: evaluationNotes(ctx.scale) };
  },
};
