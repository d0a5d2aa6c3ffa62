import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExperimentResults } from '../run/results';
import { EXPOSURE_CSV, exposureCsv } from './exposure-csv';
import { htmlReport } from './html-report';
import { markdownReport } from './markdown-report';
import { attacksRocFile, attacksRocSpec } from './attack-roc';
import { renderSvg } from './render-svg';

/** Writes `text` to `path` through a temporary file and a rename, so a reader never sees half a file. */
export async function writeAtomic(path: string, text: string): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, path);
}

/**
 * Writes `results.json`, `config.json` (the config as run, defaults filled in: `mia run` it to run
 * it again), `report.md` and `report.html` into `dir` (each atomically), and with a run's per-record
 * scores (`results.perRecord`) `exposure.csv` (an older one is removed when the run has none; results
 * read back from `results.json`, which never hold them, leave it as it is), and for a run with reference
 * models `roc-attacks-<n>.svg`, each row's log-log ROC of the attacks that `report.md` shows. Returns their paths.
 */
export async function writeReport(
  results: ExperimentResults,
  dir: string,
): Promise<{ json: string; config: string; markdown: string; html: string; csv?: string }> {
  await mkdir(dir, { recursive: true });
  const paths = { json: join(dir, 'results.json'), config: join(dir, 'config.json'), markdown: join(dir, 'report.md'), html: join(dir, 'report.html') };
  const { perRecord, ...stored } = results;
  const csv = join(dir, EXPOSURE_CSV);
  if (perRecord !== undefined && perRecord.length > 0) await writeAtomic(csv, exposureCsv(perRecord));
  else if (perRecord !== undefined) await rm(csv, { force: true });
  await writeAtomic(paths.json, `${JSON.stringify(stored, null, 2)}\n`);
  await writeAtomic(paths.config, `${JSON.stringify(results.config, null, 2)}\n`);
  // A run with reference models: report.md shows each row's log-log ROC of the attacks from an SVG beside it.
  if (results.references !== undefined)
    for (const [i, row] of results.rows.entries()) await writeAtomic(join(dir, attacksRocFile(i)), await renderSvg(attacksRocSpec(row)));
  await writeAtomic(paths.markdown, markdownReport(results, { configPath: paths.config }));
  await writeAtomic(paths.html, await htmlReport(results, { configPath: paths.config }));
  return perRecord !== undefined && perRecord.length > 0 ? { ...paths, csv } : paths;
}
