import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExperimentResults } from '../run/results';
import { htmlReport } from './html-report';
import { markdownReport } from './markdown-report';

/** Writes `text` to `path` through a temporary file and a rename, so a reader never sees half a file. */
export async function writeAtomic(path: string, text: string): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, path);
}

/**
 * Writes `results.json`, `config.json` (the config as run, defaults filled in: `mia run` it to run
 * it again), `report.md` and `report.html` into `dir` (each atomically). Returns their paths.
 */
export async function writeReport(results: ExperimentResults, dir: string): Promise<{ json: string; config: string; markdown: string; html: string }> {
  await mkdir(dir, { recursive: true });
  const paths = { json: join(dir, 'results.json'), config: join(dir, 'config.json'), markdown: join(dir, 'report.md'), html: join(dir, 'report.html') };
  await writeAtomic(paths.json, `${JSON.stringify(results, null, 2)}\n`);
  await writeAtomic(paths.config, `${JSON.stringify(results.config, null, 2)}\n`);
  await writeAtomic(paths.markdown, markdownReport(results, { configPath: paths.config }));
  await writeAtomic(paths.html, await htmlReport(results, { configPath: paths.config }));
  return paths;
}
