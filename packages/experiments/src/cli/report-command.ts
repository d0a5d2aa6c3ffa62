import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidArgumentError } from '@mia/core';
import { readStoredJson, rerenderRun } from '../report/rerender-run';
import { writeReproductionReport } from '../reproduce/reproduction-report';
import { reproductionFromStored, type StoredReproductionResult } from '../reproduce/stored-reproduction';

/**
 * `mia report <dir>`: re-renders the reports of a run directory from its JSON: `results.json` of
 * `mia run`, or `reproduction.json` of `mia reproduce` together with each of its `runs/<id>/`.
 * @returns the paths written.
 * @throws InvalidArgumentError when the directory holds neither file, or one is not valid.
 */
export async function rerenderReports(dir: string): Promise<string[]> {
  const reproduction = await readStoredJson<StoredReproductionResult>(join(dir, 'reproduction.json'));
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
  const paths = await writeReproductionReport(reproductionFromStored(reproduction), dir);
  return [...written, paths.markdown, paths.html];
}
