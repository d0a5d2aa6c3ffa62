import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InvalidArgumentError } from '@mia/core';
import { loadDataset, progressLines, type DatasetName } from '@mia/data';
import { loadExperimentConfig } from '../config/load-config';
import { rerenderReports } from './report-command';
import { writeReport } from '../report/write-report';
import type { DefenseRow, ExperimentResults } from '../run/results';
import { formatEpsilon } from '../run/warnings';
import { runExperiment, type UnitPlacement } from '../run/runner';
import { reproductionSummary } from '../reproduce/reproduction-summary';
import { getReproduction, reproductionNames } from '../reproduce/registry';
import { runReproduction } from '../reproduce/run-reproduction';
import { redecideReproduction } from '../reproduce/redecide';
import { defaultModelStore } from '../store/model-store';
import { REPRODUCTION_SCALES, type ReproductionScale } from '../reproduce/types';
import { whatItMeans } from '../report/what-it-means';
import { terminalText } from '../report/escape';

// The package's configs/: two levels up from src/cli/commands.ts, one from the bundled dist/*.js.
const CONFIG_DIR = join(dirname(fileURLToPath(import.meta.url)), ...(import.meta.url.endsWith('.ts') ? ['..', '..'] : ['..']), 'configs');
const pct = (v: number) => `${(100 * v).toFixed(1)}%`;
// Everything printed goes through terminalText: labels, names and notes come from a config and must
// not reach the terminal as escape sequences (line breaks of the CLI's own text are kept).
const stdout = (text: string) => process.stdout.write(terminalText(text, { multiline: true }));
const stderr = (text: string) => process.stderr.write(terminalText(text, { multiline: true }));

interface GlobalOptions {
  quiet?: boolean;
}

/** `mia run <config>`: runs the experiment and writes results.json, report.md, report.html. */
export async function runCommand(
  configPath: string,
  opts: { out?: string; dataDir?: string; workers?: number; placement?: UnitPlacement; command?: string },
  global: GlobalOptions,
): Promise<void> {
  const config = await loadExperimentConfig(configPath);
  const log = global.quiet === true ? undefined : (line: string) => stderr(`${line}\n`);
  const results = await runExperiment(config, { dataDir: opts.dataDir, workers: opts.workers, placement: opts.placement, onLog: log });
  const paths = await writeReport({ ...results, command: opts.command ?? `mia run ${configPath}` }, opts.out ?? join('runs', config.name));
  printSummary(results);
  stdout(`\nwrote ${[paths.json, paths.markdown, paths.html, ...(paths.csv === undefined ? [] : [paths.csv])].join('\n      ')}\n`);
}

function printSummary(results: ExperimentResults): void {
  const lines = results.rows.map(
    (r) =>
      `  ${terminalText(r.label).padEnd(24)} train ${pct(r.trainAccuracy).padStart(6)}  test ${pct(r.testAccuracy).padStart(6)}  max adv ${pct(r.maxAdvantage).padStart(6)}  P1 ${r.p1.toFixed(3)}  cache ${r.cache.target}/${r.cache.shadow}${epsilonSummary(r)}`,
  );
  stdout(`${terminalText(results.config.name)} (${results.seconds.toFixed(1)} s, backend ${results.backend})\n${lines.join('\n')}\n`);
  const meaning = whatItMeans(results);
  if (meaning.length > 0) stdout(`\nwhat it means: ${terminalText(meaning.join(' '))}\n\n`);
  for (const note of results.notes) stdout(`note: ${terminalText(note)}\n`);
  for (const warning of results.warnings ?? []) stderr(`warning: ${terminalText(warning)}\n`);
}

/** A row's ε in the terminal summary: the accountant's (DP rows) and the attack's lower bound, flagged when the bound exceeds it. */
export function epsilonSummary(r: DefenseRow): string {
  const dp =
    r.privacy === undefined ? '' : `  DP ε ${formatEpsilon(r.privacy.epsilon)} (δ ${r.privacy.delta}${r.privacy.covered === false ? ', not covered' : ''})`;
  const bound = r.empiricalEpsilon === undefined ? '' : `  ε ≥ ${formatEpsilon(r.empiricalEpsilon.epsilon)}`;
  const audit = r.privacy?.audit;
  const canaries =
    audit === undefined
      ? ''
      : `  canary ε ≥ ${audit.empiricalEpsilon === null ? '∞' : formatEpsilon(audit.empiricalEpsilon)}${audit.broken ? ' (BROKEN DP)' : ''}`;
  return `${dp}${bound}${canaries}${r.empiricalEpsilon?.exceedsAccountant === true ? '  BROKEN DP' : ''}`;
}

/** `mia reproduce <name>`: runs a registered paper reproduction at a scale, or a shipped config. */
export async function reproduceCommand(
  name: string | undefined,
  opts: {
    list?: boolean;
    out?: string;
    dataDir?: string;
    scale?: string;
    workers?: number;
    redecide?: boolean;
    /** `--queue`: each run's units are trained by queue workers (see `withQueueTrainer`). */
    placement?: UnitPlacement;
  },
  global: GlobalOptions,
): Promise<void> {
  const names = (await readdir(CONFIG_DIR)).filter((f) => /\.(json|ya?ml)$/.test(f)).map((f) => f.replace(/\.(json|ya?ml)$/, ''));
  const reproductions = reproductionNames();
  if (opts.list === true || name === undefined) {
    const lines = reproductions.map((n) => `  ${n.padEnd(18)} ${getReproduction(n)!.title}`);
    process.stdout.write(
      `paper reproductions (--scale smoke|cpu|paper):\n${lines.length > 0 ? lines.join('\n') : "  (none registered: run through the repository's `pnpm mia`)"}\nshipped configs:\n${names.map((n) => `  ${n}`).join('\n')}\n`,
    );
    return;
  }
  const reproduction = getReproduction(name);
  if (reproduction !== undefined) {
    const scale = opts.scale ?? 'cpu';
    if (!(REPRODUCTION_SCALES as readonly string[]).includes(scale))
      throw new InvalidArgumentError(`reproduce: --scale must be one of ${REPRODUCTION_SCALES.join(', ')}, got ${JSON.stringify(scale)}`);
    if (opts.scale === undefined)
      process.stderr.write(`reproduce: ${name} at scale cpu, the default (minutes to an hour on 2 cores; --scale smoke checks it in seconds)\n`);
    const log = global.quiet === true ? undefined : (line: string) => stderr(`${line}\n`);
    const out = opts.out ?? join('runs', `${name}-${scale}`);
    if (opts.redecide === true) {
      const result = await redecideReproduction(reproduction, { dir: out, store: defaultModelStore(), ...(log === undefined ? {} : { onLog: log }) });
      stdout(reproductionSummary(result, out, { redecided: true }));
      return;
    }
    const result = await runReproduction(reproduction, {
      scale: scale as ReproductionScale,
      out,
      dataDir: opts.dataDir,
      workers: opts.workers,
      ...(opts.placement === undefined ? {} : { placement: opts.placement }),
      onLog: log,
    });
    stdout(reproductionSummary(result, out));
    return;
  }
  if (opts.placement !== undefined)
    throw new InvalidArgumentError(
      `reproduce: --queue applies to paper reproductions (${reproductions.join(', ') || 'none registered'}); for the shipped config ${JSON.stringify(name)} use mia sweep <config> --queue <url>`,
    );
  if (opts.scale !== undefined)
    throw new InvalidArgumentError(
      `reproduce: --scale applies to paper reproductions (${reproductions.join(', ') || 'none registered'}), not to the shipped config ${JSON.stringify(name)}`,
    );
  const file = (await readdir(CONFIG_DIR)).find((f) => f.replace(/\.(json|ya?ml)$/, '') === name);
  if (file === undefined)
    throw new InvalidArgumentError(`reproduce: name must be one of ${[...reproductions, ...names].join(', ')}, got ${JSON.stringify(name)}`);
  await runCommand(join(CONFIG_DIR, file), { ...opts, command: `mia reproduce ${name}` }, global);
}

/** `mia report <run-dir>`: re-renders the reports of a run or of a reproduction and its runs. */
export async function reportCommand(dir: string): Promise<void> {
  const written = await rerenderReports(dir);
  stdout(`wrote ${written.join('\n      ')}\n`);
}

/**
 * `mia datasets fetch <name>`: on a terminal the loader draws its progress bar; in a log or a pipe
 * progress comes as plain lines (start, every 10 %, end) that do not pile up carriage returns.
 */
export async function datasetsFetchCommand(name: string, opts: { dataDir?: string }): Promise<void> {
  const dataset = await loadDataset(name as DatasetName, {
    ...(opts.dataDir === undefined ? {} : { dataDir: opts.dataDir }),
    ...(process.stderr.isTTY === true ? {} : { onProgress: progressLines(process.stderr) }),
  });
  process.stdout.write(
    `${dataset.name}: ${dataset.size} examples, ${dataset.numClasses} classes, input [${dataset.inputShape.join(', ')}], ${dataset.source}\n`,
  );
}
