import type { DefenseRow, ExperimentResults } from '../results';
import { isNotRun, type CellFormat, type Claim, type ReproductionTable, type RunOutcome, type TableCell } from './types';

/** Paper values of a table: `paper[rowLabel][column]`, either a number or `[mean, std]`. */
export type PaperValues = Readonly<Record<string, Readonly<Record<string, number | readonly [number, number]>>>>;

/** Options of {@link metricTable}. */
export interface MetricTableOptions {
  readonly title: string;
  /** Column name → the run that fills it (one run per column, e.g. one per dataset). */
  readonly runs: Readonly<Record<string, RunOutcome>>;
  /** Row label → the defense label of the row in every run (defaults to the row label). */
  readonly rows: readonly string[] | Readonly<Record<string, string>>;
  /** The number of a row in a run. */
  readonly metric: (row: DefenseRow, results: ExperimentResults) => number;
  readonly format: CellFormat;
  readonly paper?: PaperValues;
  readonly caption?: string;
}

function paperCell(paper: PaperValues | undefined, row: string, column: string): Pick<TableCell, 'paper' | 'paperStd'> {
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
      return { ...paper, ours: options.metric(row, outcome) };
    }),
  }));
  return { title: options.title, columns, rows, format: options.format, ...(options.caption === undefined ? {} : { caption: options.caption }) };
}

/** Formats a number as the table does (percent with one decimal, or three decimals). */
export function formatValue(value: number, format: CellFormat): string {
  if (!Number.isFinite(value)) return 'n/a';
  if (format === 'pct') return (100 * value).toFixed(1);
  if (format === 'int') return String(Math.round(value));
  return Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(3);
}

/** A claim from a boolean test; `undefined` means it could not be evaluated (say why in `evidence`). */
export function claim(statement: string, holds: boolean | undefined, evidence: string): Claim {
  return { statement, verdict: holds === undefined ? 'not evaluated' : holds ? 'holds' : 'does not hold', evidence };
}

/** A cell of a table by row label and column, or undefined. */
export function cellOf(table: ReproductionTable, row: string, column: string): TableCell | undefined {
  const c = table.columns.indexOf(column);
  return c < 0 ? undefined : table.rows.find((r) => r.label === row)?.cells[c];
}

/**
 * A claim that `compare(a, b)` holds in every column where both rows were measured, e.g.
 * "P1(CCQL) > P1(undefended) on every dataset". Not evaluated when no column has both.
 */
export function claimForEveryColumn(
  table: ReproductionTable,
  statement: string,
  rowA: string,
  rowB: string,
  compare: (a: number, b: number) => boolean,
): Claim {
  const parts: string[] = [];
  const verdicts: boolean[] = [];
  for (const column of table.columns) {
    const a = cellOf(table, rowA, column)?.ours;
    const b = cellOf(table, rowB, column)?.ours;
    if (a === undefined || b === undefined) {
      parts.push(`${column}: not run`);
      continue;
    }
    const ok = compare(a, b);
    verdicts.push(ok);
    parts.push(`${column}: ${rowA} ${formatValue(a, table.format)} vs ${rowB} ${formatValue(b, table.format)} (${ok ? 'holds' : 'fails'})`);
  }
  const holds = verdicts.length === 0 ? undefined : verdicts.every(Boolean);
  return claim(statement, holds, verdicts.length === 0 ? `no column has both rows measured (${parts.join('; ')})` : parts.join('; '));
}
