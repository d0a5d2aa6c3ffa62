import { type DefenseRow } from '@mia/experiments';
import { isNotRun, rowOf, type CellFormat, type NotRun, type ReproductionTable, type RunOutcome, type TableCell } from '@mia/experiments/reproduce';

/** One row of a {@link settingsTable}: a defense setting and its runner row, or why it did not run. */
export interface SettingRow {
  readonly label: string;
  readonly row: DefenseRow | NotRun;
}

/** One column of a {@link settingsTable}: a number of a row, or a fixed "not run" reason. */
export interface SettingColumn {
  readonly name: string;
  readonly value?: (row: DefenseRow) => number | undefined;
  /** The whole column is not run, for this reason (e.g. an attack the runner lacks). */
  readonly notRun?: string;
}

/** The row of `label` in a run, or a {@link NotRun} saying why there is none. */
export function settingOf(outcome: RunOutcome, label: string): DefenseRow | NotRun {
  if (isNotRun(outcome)) return outcome;
  return rowOf(outcome, label) ?? { notRun: `not run: no defense labelled ${JSON.stringify(label)} in this run` };
}

/**
 * A table whose rows are defense settings (possibly from several runs) and whose columns are numbers
 * of each setting (test accuracy, one attack's advantage, …), each cell beside the paper's value when
 * `paper[row][column]` is given.
 */
export function settingsTable(options: {
  readonly title: string;
  readonly rows: readonly SettingRow[];
  readonly columns: readonly SettingColumn[];
  readonly format: CellFormat;
  readonly caption?: string;
  readonly paper?: Readonly<Record<string, Readonly<Record<string, number>>>>;
}): ReproductionTable {
  const rows = options.rows.map(({ label, row }) => ({
    label,
    cells: options.columns.map((column): TableCell => {
      const paperValue = options.paper?.[label]?.[column.name];
      const paper = paperValue === undefined ? {} : { paper: paperValue };
      if (column.notRun !== undefined) return { ...paper, notRun: column.notRun };
      if (isNotRun(row)) return { ...paper, notRun: row.notRun };
      const value = column.value?.(row);
      return value === undefined ? { ...paper, notRun: `not run: no ${column.name} for this setting` } : { ...paper, ours: value };
    }),
  }));
  return {
    title: options.title,
    columns: options.columns.map((c) => c.name),
    rows,
    format: options.format,
    ...(options.caption === undefined ? {} : { caption: options.caption }),
  };
}

/** The advantage of one attack in a row, or undefined when that attack was not run. */
export const advantageOf = (row: DefenseRow, attack: string): number | undefined => row.attacks.find((a) => a.attack === attack)?.advantage;
