import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidArgumentError } from '@mia/core';
import type { ExperimentResults } from '../run/results';
import { writeReproductionReport } from '../reproduce/reproduction-report';
import type { ReproductionResult } from '../reproduce/types';
import { writeReport } from './write-report';

async function readJson<T>(path: string): Promise<T | undefined> {
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

async function rerenderRun(dir: string): Promise<string[]> {
  const results = await readJson<ExperimentResults>(join(dir, 'results.json'));
  if (results === undefined) return [];
  if (results.format !== 'mia-results-1')
    throw new InvalidArgumentError(`report: ${join(dir, 'results.json')} has format ${JSON.stringify(results.format)}, expected "mia-results-1"`);
  const paths = await writeReport(results, dir);
  return [paths.markdown, paths.html];
}

/**
 * `mia report <dir>`: re-renders the reports of a run directory from its JSON: `results.json` of
 * `mia run`, or `reproduction.json` of `mia reproduce` together with each of its `runs/<id>/`.
 * @returns the paths written.
 * @throws InvalidArgumentError when the directory holds neither file, or one is not valid.
 */
export async function rerenderReports(dir: string): Promise<string[]> {
  const reproduction = await readJson<ReproductionResult>(join(dir, 'reproduction.json'));
  if (reproduction === undefined) {
    const written = await rerenderRun(dir);
    if (written.length === 0)
      throw new InvalidArgumentError(`report: ${dir} holds neither results.json (of \`mia run\`) nor reproduction.json (of \`mia reproduce\`)`);
    return written;
  }
  if (reproduction.format !== 'mia-reproduction-1')
    throw new InvalidArgumentError(
      `report: ${join(dir, 'reproduction.json')} has format ${JSON.stringify(reproduction.format)}, expected "mia-reproduction-1"`,
    );
  const written: string[] = [];
  const runs = await readdir(join(dir, 'runs')).catch(() => [] as string[]);
  for (const id of runs.sort()) written.push(...(await rerenderRun(join(dir, 'runs', id))));
  const paths = await writeReproductionReport(reproduction, dir);
  return [...written, paths.markdown, paths.html];
}
