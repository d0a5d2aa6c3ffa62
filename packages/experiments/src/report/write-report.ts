import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExperimentResults } from '../run/results';
import { EXPOSURE_CSV, exposureCsv } from './exposure-csv';
import { htmlReport } from './html-report';
import { markdownReport } from './markdown-report';
import { attacksRocFile, attacksRocSpec } from './attack-roc';
import { renderSvg } from './render-svg';
import { writeOutputSet, type OutputFile, type WriteOutputSetOptions } from './output-set';

/** Options of {@link writeReport}. */
export type WriteReportOptions = Pick<WriteOutputSetOptions, 'onStep'>;

/**
 * Writes `results.json`, `config.json` (the config as run, defaults filled in: `mia run` it to run
 * it again), `report.md` and `report.html` into `dir`, and with a run's per-record scores
 * (`results.perRecord`) `exposure.csv` (an older one is removed when the run has none; results read
 * back from `results.json`, which never hold them, leave it as it is), and for a run with reference
 * models `roc-attacks-<n>.svg`, each row's log-log ROC of the attacks that `report.md` shows (older
 * ones the run does not have are removed). The files are written as one set ({@link writeOutputSet}):
 * the directory holds all of the old run's or all of the new one's, `results.json` is put in place
 * last, and an interrupted write is completed by the next writer or reader. Returns their paths.
 */
export async function writeReport(
  results: ExperimentResults,
  dir: string,
  options: WriteReportOptions = {},
): Promise<{ json: string; config: string; markdown: string; html: string; csv?: string }> {
  const paths = { json: join(dir, 'results.json'), config: join(dir, 'config.json'), markdown: join(dir, 'report.md'), html: join(dir, 'report.html') };
  const { perRecord, ...stored } = results;
  const files: OutputFile[] = [];
  const hasCsv = perRecord !== undefined && perRecord.length > 0;
  if (hasCsv) files.push({ name: EXPOSURE_CSV, content: exposureCsv(perRecord) });
  files.push({ name: 'config.json', content: `${JSON.stringify(results.config, null, 2)}\n` });
  // A run with reference models: report.md shows each row's log-log ROC of the attacks from an SVG beside it.
  if (results.references !== undefined)
    for (const [i, row] of results.rows.entries()) files.push({ name: attacksRocFile(i), content: await renderSvg(attacksRocSpec(row)) });
  files.push({ name: 'report.md', content: markdownReport(results, { configPath: paths.config }) });
  files.push({ name: 'report.html', content: await htmlReport(results, { configPath: paths.config }) });
  files.push({ name: 'results.json', content: `${JSON.stringify(stored, null, 2)}\n` });
  const oldFigures = (await readdir(dir).catch(() => [] as string[])).filter((n) => /^roc-attacks-\d+\.svg$/.test(n));
  const remove = [...(perRecord !== undefined && !hasCsv ? [EXPOSURE_CSV] : []), ...oldFigures];
  await writeOutputSet(dir, files, { remove, ...options });
  return hasCsv ? { ...paths, csv: join(dir, EXPOSURE_CSV) } : paths;
}
