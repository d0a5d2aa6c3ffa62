import { type DefenseRow } from '@mia/experiments';
import { formatValue, isNotRun, rowOf, type PaperValues, type ReproductionTable, type RunOutcome, type TableCell } from '@mia/experiments/reproduce';

/** Mean advantage over the attacks run: the y-axis of PAST Fig. 5 and 6 ("average attack advantage"). */
export function averageAdvantage(row: DefenseRow): number {
  return row.attacks.reduce((sum, a) => sum + a.advantage, 0) / row.attacks.length;
}

/** The advantage of one attack on a defense's target, NaN when that attack was not run. */
export function attackAdvantage(row: DefenseRow, attack: string): number {
  return row.attacks.find((a) => a.attack === attack)?.advantage ?? Number.NaN;
}

/** Options of {@link rowMetricTable}. */
export interface RowMetricTableOptions {
  readonly title: string;
  /** The one run whose defenses fill the rows. */
  readonly run: RunOutcome;
  /** Row label → the defense label of the row in the run, or `{ notRun }` for a row that cannot run here. */
  readonly rows: Readonly<Record<string, string | { readonly notRun: string }>>;
  /** Column → its number of a defense row (NaN = the cell has no value; `notRunReason` says why). */
  readonly columns: Readonly<Record<string, (row: DefenseRow) => number>>;
  readonly format: 'pct' | 'num' | 'int';
  readonly paper?: PaperValues;
  readonly caption?: string;
  /** Why a NaN cell has no value. @default "not run: no value" */
  readonly notRunReason?: string;
}

/**
 * A table whose rows are defenses of ONE run and whose columns are metrics of a row (the
 * transpose of `metricTable`, for ablations and sweeps), each cell beside the paper's value.
 */
export function rowMetricTable(options: RowMetricTableOptions): ReproductionTable {
  const columns = Object.keys(options.columns);
  const rows = Object.entries(options.rows).map(([label, target]) => ({
    label,
    cells: columns.map((column): TableCell => {
      const v = options.paper?.[label]?.[column];
      const paper: Pick<TableCell, 'paper' | 'paperStd'> = v === undefined ? {} : typeof v === 'number' ? { paper: v } : { paper: v[0], paperStd: v[1] };
      if (typeof target !== 'string') return { ...paper, notRun: target.notRun };
      if (isNotRun(options.run)) return { ...paper, notRun: options.run.notRun };
      const row = rowOf(options.run, target);
      if (row === undefined) return { ...paper, notRun: `not run: no defense labelled ${JSON.stringify(target)} in this run` };
      const value = options.columns[column]!(row);
      return Number.isFinite(value) ? { ...paper, ours: value } : { ...paper, notRun: options.notRunReason ?? 'not run: no value' };
    }),
  }));
  return { title: options.title, columns, rows, format: options.format, ...(options.caption === undefined ? {} : { caption: options.caption }) };
}

/** The defense rows of a run whose label starts with `prefix ` (the points of one swept grid). */
export function gridRows(run: RunOutcome, prefix: string): DefenseRow[] {
  if (isNotRun(run)) return [];
  return run.rows.filter((r) => r.label === prefix || r.label.startsWith(`${prefix} `));
}

/** Formats a fraction as the reports do (percent, one decimal). */
export const pct = (v: number): string => formatValue(v, 'pct');
