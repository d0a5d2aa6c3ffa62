import type { DefenseRow, ExperimentResults } from '../run/results';
import type { RowMetric } from './row-metrics';
import { isNotRun, type CellFormat, type ReproductionTable, type RunOutcome, type TableCell } from './types';
import { formatNumber } from './verdicts';

/** Paper values of a table: `paper[rowLabel][column]`, either a number or `[mean, std]`. */
export type PaperValues = Readonly<Record<string, Readonly<Record<string, number | readonly [number, number]>>>>;

/** Options of {@link metricTable}. */
export interface MetricTableOptions {
  readonly title: string;
  /** Column name → the run that fills it (one run per column, e.g. one per dataset). */
  readonly runs: Readonly<Record<string, RunOutcome>>;
  /** Row label → the defense label of the row in every run (defaults to the row label). */
  readonly rows: readonly string[] | Readonly<Record<string, string>>;
  /** The number of a row in a run; a {@link RowMetric} also gives each cell its standard error. */
  readonly metric: ((row: DefenseRow, results: ExperimentResults) => number) | RowMetric;
  readonly format: CellFormat;
  readonly paper?: PaperValues;
  readonly caption?: string;
}

function paperCell(paper: PaperValues | undefined, row: string, column: string): { paper?: number; paperStd?: number } {
  const v = paper?.[row]?.[column];
  if (v === undefined) return {};
  return typeof v === 'number' ? { paper: v } : { paper: v[0], paperStd: v[1] };
}

/** The row of a defense label in a run, or undefined. */
export function rowOf(results: ExperimentResults, label: string): DefenseRow | undefined {
  return results.rows.find((r) => r.label === label);
}

/**
 * A table whose rows are defenses and whose columns are runs (e.g. datasets): each cell is `metric`
 * of that defense's row in that run, beside the paper's value. Runs that did not happen give
 * "not run" cells with the reason.
 */
export function metricTable(options: MetricTableOptions): ReproductionTable {
  const rowMap: Record<string, string> = Array.isArray(options.rows)
    ? Object.fromEntries((options.rows as readonly string[]).map((r) => [r, r]))
    : { ...(options.rows as Record<string, string>) };
  const columns = Object.keys(options.runs);
  const rows = Object.entries(rowMap).map(([label, defenseLabel]) => ({
    label,
    cells: columns.map((column): TableCell => {
      const outcome = options.runs[column]!;
      const paper = paperCell(options.paper, label, column);
      if (isNotRun(outcome)) return { ...paper, notRun: outcome.notRun };
      const row = rowOf(outcome, defenseLabel);
      if (row === undefined) return { ...paper, notRun: `not run: no defense labelled ${JSON.stringify(defenseLabel)} in this run` };
      const metric = options.metric;
      if (typeof metric === 'function') return { ...paper, ours: metric(row, outcome) };
      const e = metric.estimate(row, outcome);
      const cell: TableCell = {
        ...paper,
        ours: e.value,
        ...(e.se === undefined ? {} : { se: e.se }),
        ...(e.seSource === undefined ? {} : { seSource: e.seSource }),
        ...(e.df === undefined ? {} : { df: e.df }),
      };
      const seedValue = metric.seedValue;
      if (row.seeds === undefined || row.seeds.length <= 1 || seedValue === undefined) return cell;
      return { ...cell, perSeed: row.seeds.map((s) => seedValue(s)), seeds: row.seeds.map((s) => s.trainingSeed) };
    }),
  }));
  return { title: options.title, columns, rows, format: options.format, ...(options.caption === undefined ? {} : { caption: options.caption }) };
}

/** Formats a number as the table does (percent with one decimal, or three decimals). */
export const formatValue = formatNumber;

/** A cell of a table by row label and column, or undefined. */
export function cellOf(table: ReproductionTable, row: string, column: string): TableCell | undefined {
  const c = table.columns.indexOf(column);
  return c < 0 ? undefined : table.rows.find((r) => r.label === row)?.cells[c];
}
