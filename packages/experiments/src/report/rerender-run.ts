import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { InvalidArgumentError } from '@mia/core';
import type { ExperimentResults } from '../run/results';
import { writeReport } from './write-report';
import { settleOutputSet } from './output-set';

/**
 * Reads a JSON file that a run or a reproduction wrote (`results.json`, `reproduction.json`), after
 * completing an interrupted write of its directory's outputs ({@link settleOutputSet}), so what it
 * reads belongs to one complete set.
 * @returns the parsed value, or undefined when the file does not exist or cannot be read.
 * @throws InvalidArgumentError when the file exists but is not valid JSON, naming its path;
 *   MiaError when the directory holds a half-replaced set that cannot be completed.
 */
export async function readStoredJson<T>(path: string): Promise<T | undefined> {
  await settleOutputSet(dirname(path));
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    return JSON.parse(text) as T;
  } catch (cause) {
    throw new InvalidArgumentError(`report: ${path} is not valid JSON`, { cause });
  }
}

/**
 * Re-renders `report.md` and `report.html` of a `mia run` directory from its `results.json`
 * (`exposure.csv`, which `results.json` does not hold, is left as it is).
 * @returns the paths written, or none when the directory holds no `results.json`.
 * @throws InvalidArgumentError when `results.json` is not valid JSON or not of format `mia-results-1`.
 */
export async function rerenderRun(dir: string): Promise<string[]> {
  const results = await readStoredJson<ExperimentResults>(join(dir, 'results.json'));
  if (results === undefined) return [];
  if (results.format !== 'mia-results-1')
    throw new InvalidArgumentError(`report: ${join(dir, 'results.json')} has format ${JSON.stringify(results.format)}, expected "mia-results-1"`);
  const paths = await writeReport(results, dir);
  return [paths.markdown, paths.html];
}
