// `mia doctor <run-dir | scores>`: is this audit valid? The blind baseline and the validity findings (docs/guides/audit-doctor.md).
import { stat } from 'node:fs/promises';
import { InvalidArgumentError, MiaError } from '@mia/core';
import { prepareData } from '../data/prepare-data';
import { planRun } from '../plan/plan-run';
import { attackNeedsShadow } from '../attacks/registry';
import { diagnoseRun } from '../run/audit-doctor';
import { readResults } from './gate-run-dir';
import { readScoreFile } from './read-score-file';
import { tableStatistics } from './table-statistics';
import { runDirValidity, scoresFileValidity, validityLines, type ValidityView } from './audit-validity-lines';
import type { StatisticName } from '@mia/attacks';

/** Options of `mia doctor`, as commander passes them. */
export interface DoctorOptions {
  readonly format?: string;
  readonly labels?: string;
  readonly members?: string;
  readonly kind?: string;
  /** Run directory: plan the run again from its config and data, to run every check. */
  readonly replan?: boolean;
  readonly dataDir?: string;
  readonly json?: boolean;
}

/** The statistics `mia attack --scores` states (the doctor holds the best of them against the baseline). */
const STATISTICS: readonly StatisticName[] = ['loss', 'confidence', 'maxConfidence', 'entropy', 'modifiedEntropy', 'phi', 'correctness'];

/** A run directory's validity: what it stored and what results.json allows, or (`--replan`) every check on its plan again. */
async function runDirView(dir: string, opts: DoctorOptions): Promise<ValidityView> {
  const results = await readResults(dir);
  const stored = runDirValidity(results);
  if (opts.replan !== true) return stored;
  const data = await prepareData(results.config, { dataDir: opts.dataDir });
  const plan = planRun(results.config, data, attackNeedsShadow);
  const again = diagnoseRun(plan, results.rows, [], undefined);
  const seen = new Set(stored.findings.map((f) => `${f.code}:${f.cause}`));
  return {
    baseline: stored.baseline ?? again.baseline!,
    findings: [...stored.findings, ...again.findings.filter((f) => !seen.has(`${f.code}:${f.cause}`))],
    notes: [
      ...again.notes,
      ...(results.config.references?.import === undefined ? [] : ['Imported reference models were not read again: their keep masks are checked by `mia run`.']),
      ...(stored.baseline === undefined ? ["results.json holds no per-record scores: compare the rows' attack AUCs with the baseline's by hand."] : []),
    ],
  };
}

/** A scores file's validity: the labels-only blind baseline against the best statistic, and the TPRs `mia attack --scores` states. */
async function scoresFileView(file: string, opts: DoctorOptions): Promise<ValidityView> {
  const table = await readScoreFile(file, { ...opts, command: 'doctor', flag: 'scores file', onNote: (line) => process.stderr.write(`mia ${line}\n`) });
  const { statistics } = tableStatistics(table, STATISTICS);
  return scoresFileValidity(
    table,
    statistics.map((s) => ({ name: s.name, scores: s.scores() })),
    [0.01, 0.001],
    "mia attack's TPR@1% and TPR@0.1% columns",
  );
}

/** `mia doctor`: prints the validity of an audit; exit 0 without finding, 1 with findings, 2 when it cannot read the input. */
export async function doctorCommand(path: string, opts: DoctorOptions): Promise<number> {
  try {
    const stats = await stat(path === '-' ? '/dev/stdin' : path).catch((error: unknown) => {
      throw new InvalidArgumentError(
        `doctor: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)}): give a run directory or a scores file`,
      );
    });
    if (stats.isDirectory() && ['format', 'labels', 'members', 'kind'].some((k) => opts[k as keyof DoctorOptions] !== undefined))
      throw new InvalidArgumentError(`doctor: --format, --labels, --members and --kind apply to a scores file, got the run directory ${path}`);
    if (!stats.isDirectory() && opts.replan === true)
      throw new InvalidArgumentError(`doctor: --replan applies to a run directory, got the scores file ${path}`);
    const view = stats.isDirectory() ? await runDirView(path, opts) : await scoresFileView(path, opts);
    if (opts.json === true) process.stdout.write(`${JSON.stringify({ path, valid: view.findings.length === 0, ...view }, null, 2)}\n`);
    else {
      process.stdout.write(
        `mia doctor: ${path}: ${view.findings.length === 0 ? 'valid' : `NOT VALID (${view.findings.length} finding${view.findings.length === 1 ? '' : 's'})`}\n`,
      );
      for (const line of validityLines(view)) process.stdout.write(`  ${line}\n`);
    }
    return view.findings.length === 0 ? 0 : 1;
  } catch (error) {
    const message = MiaError.isInstance(error) ? (error as Error).message : error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    process.stderr.write(`mia ${message.startsWith('doctor:') ? message : `doctor: ${message}`}\n`);
    return 2;
  }
}
