// `mia gate <scores-file | run-dir>`: a privacy gate for CI. Exit 0 when every ceiling holds at the
// upper confidence bound, 1 when one is passed, 2 when it cannot decide (bad flags, unreadable input).
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { InvalidArgumentError, MiaError } from '@mia/core';
import {
  auditScores,
  buildScoreTable,
  checkLeakage,
  parseNpy,
  parseScoreCsv,
  parseScoreJson,
  signalsFromScoreTable,
  signedStatistic,
  type AttackScores,
  type ScoreTable,
  type StatisticName,
} from '@mia/attacks';
import { clopperPearson } from '@mia/metrics';
import type { ExperimentResults } from './results';

/** Options of `mia gate`, as commander passes them. */
export interface GateOptions {
  readonly maxAdvantage?: string;
  readonly maxTprAtFpr?: readonly string[];
  readonly confidence?: string;
  readonly labels?: string;
  readonly members?: string;
  readonly kind?: string;
}

/** The ceilings of `mia gate`, validated. */
export interface GateCeilings {
  readonly advantage?: number;
  readonly tprAtFpr: Array<[number, number]>;
  readonly confidence: number;
}

/** Outcome of a gate: exit code and the one line that says why. */
export interface GateOutcome {
  readonly exitCode: 0 | 1;
  readonly line: string;
}

const fraction = (flag: string, text: string, open = false): number => {
  const v = Number(text);
  if (text.trim() === '' || !Number.isFinite(v) || (open ? !(v > 0 && v < 1) : !(v >= 0 && v <= 1))) {
    throw new InvalidArgumentError(`gate: ${flag} must be a fraction in ${open ? '(0, 1)' : '[0, 1]'} (0.1 = 10 %), got ${JSON.stringify(text)}`);
  }
  return v;
};

/** Validates the flags of `mia gate`. @throws InvalidArgumentError naming the flag, the expected and the actual value. */
export function parseGateOptions(opts: GateOptions): GateCeilings {
  const advantage = opts.maxAdvantage === undefined ? undefined : fraction('--max-advantage', opts.maxAdvantage);
  const tprAtFpr = (opts.maxTprAtFpr ?? []).map((text): [number, number] => {
    const parts = text.split(':');
    if (parts.length !== 2) throw new InvalidArgumentError(`gate: --max-tpr-at-fpr must be <fpr>:<max tpr>, e.g. 0.001:0.05, got ${JSON.stringify(text)}`);
    return [fraction('--max-tpr-at-fpr <fpr>', parts[0]!), fraction('--max-tpr-at-fpr <max tpr>', parts[1]!)];
  });
  if (advantage === undefined && tprAtFpr.length === 0)
    throw new InvalidArgumentError('gate: give a ceiling: --max-advantage <fraction> and/or --max-tpr-at-fpr <fpr>:<max tpr>');
  return { advantage, tprAtFpr, confidence: opts.confidence === undefined ? 0.95 : fraction('--confidence', opts.confidence, true) };
}

async function readScoreTable(file: string, opts: GateOptions): Promise<ScoreTable> {
  const read = (path: string, flag: string) =>
    readFile(path).catch((cause: unknown) => {
      throw new InvalidArgumentError(`gate: cannot read ${flag} ${path}`, { cause });
    });
  if (file.endsWith('.npy')) {
    if (opts.labels === undefined || opts.members === undefined)
      throw new InvalidArgumentError(`gate: ${basename(file)} is a .npy array; also give --labels <labels.npy> and --members <membership.npy>`);
    const values = parseNpy(await read(file, 'scores file'), file);
    const kind = opts.kind ?? (values.shape.length === 2 ? 'logits' : 'losses');
    if (!['logits', 'probabilities', 'losses', 'scores'].includes(kind))
      throw new InvalidArgumentError(`gate: --kind must be logits, probabilities, losses or scores, got ${JSON.stringify(kind)}`);
    return buildScoreTable(`gate(${basename(file)})`, {
      labels: Array.from(parseNpy(await read(opts.labels, '--labels'), opts.labels).data),
      isMember: Array.from(parseNpy(await read(opts.members, '--members'), opts.members).data),
      [kind]: Array.from(values.data),
      ...(values.shape.length === 2 ? { numClasses: values.shape[1]! } : {}),
    });
  }
  const text = new TextDecoder().decode(await read(file, 'scores file'));
  return file.endsWith('.csv') ? parseScoreCsv(text, file) : parseScoreJson(text, file);
}

/** The ready-made scores of a table, or every metric attack its signals allow (internal). */
function tableAttacks(table: ScoreTable): AttackScores[] {
  const split = (scores: Float64Array, name: string): AttackScores => ({
    name,
    memberScores: scores.filter((_, i) => table.isMember[i] === 1),
    nonMemberScores: scores.filter((_, i) => table.isMember[i] === 0),
  });
  if (table.scores !== undefined) return [split(table.scores, 'scores')];
  const signals = signalsFromScoreTable(table);
  const names: StatisticName[] = ['loss', 'modifiedEntropy', 'entropy', 'maxConfidence', 'correctness'];
  return names.flatMap((name) => {
    try {
      return [split(signedStatistic(signals, name), name)];
    } catch {
      return []; // the table lacks what this statistic needs (losses only)
    }
  });
}

/** Gates a scores file: the attacks' upper confidence bounds against the ceilings. */
export async function gateScoresFile(file: string, ceilings: GateCeilings, opts: GateOptions = {}): Promise<GateOutcome> {
  const table = await readScoreTable(file, opts);
  const report = auditScores(
    {
      attacks: tableAttacks(table),
      memberLabels: table.labels.filter((_, i) => table.isMember[i] === 1),
      nonMemberLabels: table.labels.filter((_, i) => table.isMember[i] === 0),
    },
    { confidence: ceilings.confidence, fprs: ceilings.tprAtFpr.map(([fpr]) => fpr) },
  );
  const verdict = checkLeakage(report, { advantage: ceilings.advantage, tprAtFpr: ceilings.tprAtFpr, confidence: ceilings.confidence });
  return { exitCode: verdict.pass ? 0 : 1, line: `${verdict.pass ? 'PASS' : 'FAIL'} ${basename(file)} ${verdict.message}` };
}

/** `mia gate`: prints one line and sets the exit code (0 pass, 1 leak, 2 cannot decide). */
export async function gateCommand(path: string, opts: GateOptions): Promise<number> {
  try {
    const ceilings = parseGateOptions(opts);
    if (!existsSync(path)) throw new InvalidArgumentError(`gate: ${path} does not exist (give a scores file or a run directory with results.json)`);
    const outcome = statSync(path).isDirectory() ? await gateRunDir(path, ceilings) : await gateScoresFile(path, ceilings, opts);
    process.stdout.write(`mia gate: ${outcome.line}\n`);
    return outcome.exitCode;
  } catch (error) {
    const message = MiaError.isInstance(error) ? (error as Error).message : error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    process.stderr.write(`mia ${message.startsWith('gate:') ? message : `gate: ${message}`}\n`);
    return 2;
  }
}

/** `results.json` of a run directory (internal). */
async function readResults(dir: string): Promise<ExperimentResults> {
  const file = join(dir, 'results.json');
  if (!existsSync(file))
    throw new InvalidArgumentError(`gate: ${dir} is a directory without results.json (give a \`mia run\` output directory or a scores file)`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch (cause) {
    throw new InvalidArgumentError(`gate: ${file} is not valid JSON`, { cause });
  }
  const results = parsed as Partial<ExperimentResults>;
  if (results.format !== 'mia-results-1' || !Array.isArray(results.rows)) {
    throw new InvalidArgumentError(
      `gate: ${file} is not a \`mia run\` results file (format mia-results-1 with rows), got format ${JSON.stringify(results.format)}`,
    );
  }
  return results as ExperimentResults;
}

/** Standard normal quantile (Acklam's rational approximation, relative error < 1.2e-9) (internal). */
export function normalQuantile(p: number): number {
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const tail = (q: number) =>
    (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) / ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  if (p < 0.02425) return tail(Math.sqrt(-2 * Math.log(p)));
  if (p > 1 - 0.02425) return -tail(Math.sqrt(-2 * Math.log(1 - p)));
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) / (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  );
}

const pct = (v: number) => `${+(100 * v).toFixed(2)} %`;

interface RunCheck {
  readonly metric: string;
  readonly where: string;
  readonly estimate: number;
  readonly upper: number;
  readonly ceiling: number;
  readonly how: string;
}

/**
 * Gates a `mia run` output directory: for every row (defense) and attack of `results.json`, the
 * advantage of the attack's decision rule plus z·SE (the stored bootstrap SE, else the binomial
 * approximation from the partition sizes) and the Clopper–Pearson upper bound of each stored TPR@FPR.
 */
export async function gateRunDir(dir: string, ceilings: GateCeilings): Promise<GateOutcome> {
  const results = await readResults(dir);
  const sizes = results.partition?.sizes ?? {};
  const members = sizes.target_train ?? sizes.train;
  const nonMembers = sizes.target_test ?? sizes.test;
  if (members === undefined || nonMembers === undefined)
    throw new InvalidArgumentError(`gate: ${dir}/results.json has no target_train/target_test partition sizes, got ${JSON.stringify(Object.keys(sizes))}`);
  const z = normalQuantile((1 + ceilings.confidence) / 2);
  const attacks = results.rows.flatMap((row) => row.attacks.map((attack) => ({ row, attack })));
  if (attacks.length === 0) throw new InvalidArgumentError(`gate: ${dir}/results.json has no attack results to gate`);
  const checks: RunCheck[] = [];
  const worst = (metric: string, ceiling: number, bound: (a: (typeof attacks)[number]) => Omit<RunCheck, 'metric' | 'ceiling' | 'where'>) => {
    const all = attacks.map((a) => ({ metric, ceiling, where: `${a.row.label}/${a.attack.attack}`, ...bound(a) }));
    checks.push(all.reduce((w, c) => (c.upper > w.upper ? c : w)));
  };
  if (ceilings.advantage !== undefined) {
    worst('advantage', ceilings.advantage, ({ row, attack }) => {
      const stored = row.se?.attacks[attack.attack]?.advantage;
      const b = (1 + attack.advantage) / 2;
      const se = stored ?? Math.sqrt(Math.max(0, b * (1 - b)) * (1 / members + 1 / nonMembers));
      return { estimate: attack.advantage, upper: attack.advantage + z * se, how: stored === undefined ? 'binomial SE' : 'bootstrap SE' };
    });
  }
  for (const [fpr, maxTpr] of ceilings.tprAtFpr) {
    worst(`TPR@${pct(fpr)} FPR`, maxTpr, ({ attack }) => {
      const entry = attack.tprAtFpr.find((t) => Math.abs(t.fpr - fpr) < 1e-12);
      if (entry === undefined)
        throw new InvalidArgumentError(
          `gate: ${dir}/results.json stores TPR at FPR ${attack.tprAtFpr.map((t) => t.fpr).join(', ')} only, got --max-tpr-at-fpr for FPR ${fpr}`,
        );
      return {
        estimate: entry.tpr,
        upper: clopperPearson(Math.round(entry.tpr * members), members, { confidence: ceilings.confidence }).upper,
        how: 'Clopper–Pearson',
      };
    });
  }
  const failed = checks.filter((c) => c.upper > c.ceiling);
  const describe = (c: RunCheck, op: string) =>
    `${c.metric} upper bound ${pct(c.upper)} ${op} ceiling ${pct(c.ceiling)} (${c.where}, estimate ${pct(c.estimate)}, ${c.how})`;
  const confidence = `${+(100 * ceilings.confidence).toFixed(2)} % confidence`;
  return failed.length > 0
    ? { exitCode: 1, line: `FAIL ${dir} leaks more than allowed at ${confidence}: ${failed.map((c) => describe(c, '>')).join('; ')}` }
    : { exitCode: 0, line: `PASS ${dir} leaks at most the ceilings at ${confidence}: ${checks.map((c) => describe(c, '≤')).join('; ')}` };
}
