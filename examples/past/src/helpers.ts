import { type DefenseRow, type ExperimentResults } from '@mia/experiments';
import {
  compareEstimates,
  formatValue,
  isNotRun,
  rowMetrics,
  rowOf,
  type PaperValues,
  type ReproductionTable,
  type RunOutcome,
  type TableCell,
} from '@mia/experiments/reproduce';

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

/** The lowest `value` among rows whose test accuracy is at least `minAccuracy`, or undefined. */
export function lowestAtAccuracy(
  rows: readonly DefenseRow[],
  minAccuracy: number,
  value: (row: DefenseRow) => number,
): { row: DefenseRow; value: number } | undefined {
  return lowestWhere(rows, (r) => r.testAccuracy >= minAccuracy, value);
}

/**
 * "At least as accurate as the undefended model" with a 2-SE margin (docs/protocol.md §5.1): a row is
 * left out only when its test accuracy is below `vanilla`'s beyond 2 SE of the difference (bootstrap
 * SEs, or the binomial approximation in older results), never by a strict inequality on noisy numbers.
 */
export function reachesAccuracyOf(run: ExperimentResults, vanilla: DefenseRow): (row: DefenseRow) => boolean {
  const b = rowMetrics.testAccuracy.estimate(vanilla, run);
  return (row) => compareEstimates(rowMetrics.testAccuracy.estimate(row, run), b, { direction: 'less', format: 'pct' }).verdict !== 'holds';
}

/** The lowest `value` among the rows `eligible` keeps, or undefined. */
export function lowestWhere(
  rows: readonly DefenseRow[],
  eligible: (row: DefenseRow) => boolean,
  value: (row: DefenseRow) => number,
): { row: DefenseRow; value: number } | undefined {
  let best: { row: DefenseRow; value: number } | undefined;
  for (const row of rows) {
    if (!eligible(row)) continue;
    const v = value(row);
    if (Number.isFinite(v) && (best === undefined || v < best.value)) best = { row, value: v };
  }
  return best;
}
