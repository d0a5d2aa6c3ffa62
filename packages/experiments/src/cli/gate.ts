// `mia gate <scores-file | run-dir>`: a privacy gate for CI. Exit 0 when every ceiling holds at the
// upper confidence bound, 1 when one is passed, 2 when it cannot decide (bad flags, unreadable input).
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
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
import { gateRunDir } from './gate-run-dir';
import type { GateCeilings, GateOutcome } from './gate-outcome';

export type { GateCeilings, GateOutcome } from './gate-outcome';

/** Options of `mia gate`, as commander passes them. */
export interface GateOptions {
  readonly maxAdvantage?: string;
  readonly maxTprAtFpr?: readonly string[];
  readonly confidence?: string;
  readonly labels?: string;
  readonly members?: string;
  readonly kind?: string;
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
