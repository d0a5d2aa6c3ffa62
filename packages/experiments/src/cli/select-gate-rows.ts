// Which rows of a `mia run` output directory `mia gate` decides on.
import { InvalidArgumentError } from '@mia/core';
import type { DefenseRow, ExperimentResults } from '../run/results';

/**
 * The rows of a run the gate decides on (internal): the `--row` labels (each value a label, or a
 * comma-separated list of labels); by default every row but the undefended baselines (defense
 * `none`), which are there to compare with, not to ship; every row when all are undefended.
 * @returns The rows and a sentence saying which rows count and why.
 * @throws InvalidArgumentError naming an unknown label and the labels the run has.
 */
export function selectGateRows(results: ExperimentResults, file: string, requested: readonly string[] = []): { rows: DefenseRow[]; note: string } {
  const labels = results.rows.map((r) => r.label);
  const quote = (list: readonly string[]) => list.map((l) => JSON.stringify(l)).join(', ');
  if (requested.length > 0) {
    const wanted = requested.flatMap((value) => {
      if (labels.includes(value)) return [value];
      const parts = value.split(',').map((p) => p.trim());
      const unknown = parts.find((p) => !labels.includes(p));
      if (unknown !== undefined)
        throw new InvalidArgumentError(
          `gate: --row ${JSON.stringify(value)}${parts.length > 1 ? `: ${JSON.stringify(unknown)}` : ''} is not a row of ${file}; its rows are ${quote(labels)}`,
        );
      return parts;
    });
    const rows = results.rows.filter((r) => wanted.includes(r.label));
    return { rows, note: `gated rows (--row): ${quote(rows.map((r) => r.label))}` };
  }
  const baselines = results.rows.filter((r) => r.defense === 'none');
  if (baselines.length === 0 || baselines.length === results.rows.length) return { rows: [...results.rows], note: `gated rows: all, ${quote(labels)}` };
  const rows = results.rows.filter((r) => r.defense !== 'none');
  return {
    rows,
    note: `gated rows: ${quote(rows.map((r) => r.label))}; not the undefended baseline${baselines.length > 1 ? 's' : ''} ${quote(baselines.map((r) => r.label))} (--row <label> chooses the rows)`,
  };
}
