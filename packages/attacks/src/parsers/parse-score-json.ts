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
 * Parses a JSON score file: `{"numClasses"?, "labels": [...], "isMember": [...], "logits" |
 * "probabilities" | "losses" | "scores": [...]}`; matrices may be nested (`[[...], ...]`) or flat
 * row-major; membership may be booleans or 0/1.
 *
 * @param text - The file contents.
 * @param source - A file name for error messages. @default 'json'
 * @returns The validated {@link ScoreTable}.
 * @throws InvalidDatasetError on invalid JSON, missing or extra columns, lengths that disagree, or non-numeric values.
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
  return buildScoreTable(fn, {
    numClasses: o.numClasses as number | undefined,
    labels: flatten(fn, 'labels', o.labels),
    isMember: flatten(fn, 'isMember', o.isMember),
    logits: flatten(fn, 'logits', o.logits),
    probabilities: flatten(fn, 'probabilities', o.probabilities),
    losses: flatten(fn, 'losses', o.losses),
    scores: flatten(fn, 'scores', o.scores),
  });
}
