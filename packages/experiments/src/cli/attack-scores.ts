// `mia attack --scores <file>`: a score-level audit of scores exported from any model (JSON, CSV or .npy).
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { InvalidArgumentError } from '@mia/core';
import {
  buildScoreTable,
  parseNpy,
  parseScoreCsv,
  parseScoreJson,
  signalsFromScoreTable,
  signedStatistic,
  type ScoreTable,
  type StatisticName,
} from '@mia/attacks';
import { summarizeAttack } from '@mia/metrics';

const pct = (v: number) => `${(100 * v).toFixed(1)}%`;

/** Options of `mia attack`. */
export interface AttackScoresOptions {
  readonly scores: string;
  readonly json?: boolean;
  /** `.npy` inputs: the labels and the 0/1 membership arrays. */
  readonly labels?: string;
  readonly members?: string;
  /** What a `.npy` score array holds. @default logits for 2-D arrays, losses for 1-D */
  readonly kind?: 'logits' | 'probabilities' | 'losses' | 'scores';
}

async function readNpy(path: string, what: string) {
  const bytes = await readFile(path).catch((cause: unknown) => {
    throw new InvalidArgumentError(`attack: cannot read ${what} ${path}`, { cause });
  });
  return parseNpy(bytes, path);
}

async function readScoreTable(opts: AttackScoresOptions): Promise<ScoreTable> {
  const file = opts.scores;
  if (file.endsWith('.npy')) {
    if (opts.labels === undefined || opts.members === undefined) {
      throw new InvalidArgumentError(
        `attack: --scores ${basename(file)} is a .npy array; also give --labels <labels.npy> and --members <membership.npy> (or export JSON/CSV, see docs/guides/audit-pytorch.md)`,
      );
    }
    const values = await readNpy(file, '--scores');
    const labels = await readNpy(opts.labels, '--labels');
    const members = await readNpy(opts.members, '--members');
    const kind = opts.kind ?? (values.shape.length === 2 ? 'logits' : 'losses');
    if (!['logits', 'probabilities', 'losses', 'scores'].includes(kind))
      throw new InvalidArgumentError(`attack: --kind must be logits, probabilities, losses or scores, got ${JSON.stringify(kind)}`);
    return buildScoreTable(`attack(${basename(file)})`, {
      labels: Array.from(labels.data),
      isMember: Array.from(members.data),
      [kind]: Array.from(values.data),
      ...(values.shape.length === 2 ? { numClasses: values.shape[1]! } : {}),
    });
  }
  const text = await readFile(file, 'utf8').catch((cause: unknown) => {
    throw new InvalidArgumentError(`attack: cannot read --scores ${file}`, { cause });
  });
  return file.endsWith('.csv') ? parseScoreCsv(text, file) : parseScoreJson(text, file);
}

/** `mia attack --scores <file>`: threshold-free score-level audit (AUC, best advantage, TPR@FPR per statistic). */
export async function attackScoresCommand(opts: AttackScoresOptions): Promise<void> {
  const table = await readScoreTable(opts);
  const signals = signalsFromScoreTable(table);
  const candidates: Array<[string, () => Float64Array]> = [];
  if (table.scores !== undefined) candidates.push(['scores', () => table.scores!]);
  for (const name of ['loss', 'confidence', 'maxConfidence', 'entropy', 'modifiedEntropy', 'phi', 'correctness'] as StatisticName[]) {
    candidates.push([name, () => signedStatistic(signals, name)]);
  }
  const rows: Array<Record<string, unknown>> = [];
  for (const [name, scores] of candidates) {
    let s: Float64Array;
    try {
      s = scores();
    } catch {
      continue; // the table lacks what this statistic needs (e.g. losses only)
    }
    const m = summarizeAttack(s, table.isMember);
    rows.push({
      attack: name,
      auc: m.auc,
      advantage: m.advantage,
      balancedAccuracy: m.balancedAccuracy,
      tprAtFpr: m.tprAtFpr.map((t) => ({ fpr: t.fpr, tpr: t.tpr, achievedFpr: t.achievedFpr })),
    });
  }
  if (opts.json === true) {
    process.stdout.write(`${JSON.stringify({ file: opts.scores, members: m1(table), rows }, null, 2)}\n`);
    return;
  }
  process.stdout.write(
    `score-level audit of ${opts.scores}: ${m1(table).members} members, ${m1(table).nonMembers} non-members (best-threshold numbers are optimistic: thresholds chosen on the same data)\n`,
  );
  process.stdout.write(`  ${'attack'.padEnd(16)} ${'AUC'.padStart(6)} ${'adv'.padStart(7)} ${'TPR@1%'.padStart(7)} ${'TPR@0.1%'.padStart(9)}\n`);
  for (const r of rows) {
    const t = r.tprAtFpr as Array<{ tpr: number }>;
    process.stdout.write(
      `  ${String(r.attack).padEnd(16)} ${(r.auc as number).toFixed(3).padStart(6)} ${pct(r.advantage as number).padStart(7)} ${pct(t[0]!.tpr).padStart(7)} ${pct(t[1]!.tpr).padStart(9)}\n`,
    );
  }
}

function m1(table: ScoreTable) {
  const members = table.isMember.reduce((a, b) => a + b, 0);
  return { members, nonMembers: table.isMember.length - members };
}
