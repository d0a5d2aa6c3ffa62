import { InvalidDatasetError } from '@mia/core';
import { buildScoreTable, type ScoreTable } from './score-table';

function flatten(fn: string, name: string, value: unknown): number[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw new InvalidDatasetError(`${fn}: ${name} must be an array, got ${typeof value}`);
  const out: number[] = [];
  value.forEach((v: unknown, i) => {
    if (Array.isArray(v)) out.push(...flatten(fn, `${name}[${i}]`, v)!);
    else if (typeof v === 'boolean') out.push(v ? 1 : 0);
    else if (typeof v === 'number') out.push(v);
    else throw new InvalidDatasetError(`${fn}: ${name}[${i}] must be a number, got ${JSON.stringify(v)}`);
  });
  return out;
}

/**
 * Reads a logit/probability matrix: nested rows `[[...], ...]` (all of one width, returned as
 * `rowWidth`) or a flat row-major array (internal).
 */
function matrix(fn: string, name: string, value: unknown): { values?: number[]; rowWidth?: number } {
  if (!Array.isArray(value) || value.length === 0 || !value.some((row) => Array.isArray(row))) return { values: flatten(fn, name, value) };
  const rows = value as unknown[];
  const first = rows.findIndex((row) => Array.isArray(row));
  const width = (rows[first] as unknown[]).length;
  rows.forEach((row, i) => {
    if (!Array.isArray(row)) throw new InvalidDatasetError(`${fn}: ${name}[${i}] must be a row (an array) like ${name}[${first}], got ${JSON.stringify(row)}`);
    if (row.some((v) => Array.isArray(v))) throw new InvalidDatasetError(`${fn}: ${name}[${i}] must be a row of numbers, got a nested array`);
    if (row.length !== width)
      throw new InvalidDatasetError(`${fn}: ${name}[${i}] has ${row.length} values but ${name}[${first}] has ${width}; every row needs one value per class`);
  });
  return { values: flatten(fn, name, value), rowWidth: width };
}

/**
 * Parses a JSON score file: `{"numClasses"?, "labels": [...], "isMember": [...], "logits" |
 * "probabilities" | "losses" | "scores": [...]}`; matrices may be nested (`[[...], ...]`) or flat
 * row-major; membership may be booleans or 0/1. The number of classes is the width of the logit or
 * probability rows (a flat array: its length over the number of labels), so a file whose labels use
 * only some classes, or that has a single row, keeps the model's class count; an explicit
 * `numClasses` must agree with the row width.
 *
 * @param text - The file contents.
 * @param source - A file name for error messages. @default 'json'
 * @returns The validated {@link ScoreTable}.
 * @throws InvalidDatasetError on invalid JSON, missing or extra columns, lengths that disagree, ragged
 *   rows (naming the row), a `numClasses` that contradicts the row width, or non-numeric values.
 */
export function parseScoreJson(text: string, source = 'json'): ScoreTable {
  const fn = `parseScoreJson(${source})`;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new InvalidDatasetError(`${fn}: not valid JSON: ${(cause as Error).message}`, { cause });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidDatasetError(
      `${fn}: expected an object {labels, isMember, logits|probabilities|losses|scores}, got ${Array.isArray(value) ? 'an array' : typeof value}`,
    );
  }
  const o = value as Record<string, unknown>;
  if (o.numClasses !== undefined && typeof o.numClasses !== 'number')
    throw new InvalidDatasetError(`${fn}: numClasses must be a number, got ${JSON.stringify(o.numClasses)}`);
  const logits = matrix(fn, 'logits', o.logits);
  const probabilities = matrix(fn, 'probabilities', o.probabilities);
  return buildScoreTable(fn, {
    numClasses: o.numClasses as number | undefined,
    rowWidth: logits.rowWidth ?? probabilities.rowWidth,
    labels: flatten(fn, 'labels', o.labels),
    isMember: flatten(fn, 'isMember', o.isMember),
    logits: logits.values,
    probabilities: probabilities.values,
    losses: flatten(fn, 'losses', o.losses),
    scores: flatten(fn, 'scores', o.scores),
  });
}
