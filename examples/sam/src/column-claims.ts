import { claim, isNotRun, type Claim, type NotRun } from '@mia/experiments/reproduce';
import { DATASET_COLUMNS, type DatasetColumn } from './configs';
import type { ColumnEvaluation } from './evaluate-columns';

/** What a per-dataset check returns: whether it holds, and the numbers behind it. */
export interface ColumnCheck {
  readonly holds: boolean;
  readonly evidence: string;
}

/**
 * A claim that `check` holds on every dataset column that ran; columns that did not run are listed
 * as such, and so are columns `applies` excludes (e.g. no MemGuard row on CIFAR-10). "Not
 * evaluated" only when no column was checked.
 */
export function claimOverColumns(
  statement: string,
  columns: Readonly<Record<DatasetColumn, ColumnEvaluation | NotRun>>,
  check: (evaluation: ColumnEvaluation, column: DatasetColumn) => ColumnCheck,
  applies: (column: DatasetColumn) => boolean = () => true,
): Claim {
  const parts: string[] = [];
  const verdicts: boolean[] = [];
  for (const column of DATASET_COLUMNS) {
    const c = columns[column];
    if (!applies(column)) {
      parts.push(`${column}: no such row`);
      continue;
    }
    if (isNotRun(c)) {
      parts.push(`${column}: not run`);
      continue;
    }
    const r = check(c, column);
    verdicts.push(r.holds);
    parts.push(`${column}: ${r.evidence} (${r.holds ? 'holds' : 'fails'})`);
  }
  const holds = verdicts.length === 0 ? undefined : verdicts.every(Boolean);
  return claim(statement, holds, parts.join('; '));
}
