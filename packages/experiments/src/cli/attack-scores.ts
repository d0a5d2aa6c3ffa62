// `mia attack --scores <file>`: a score-level audit of scores exported from any model (JSON, CSV or .npy).
import type { ScoreTable, StatisticName } from '@mia/attacks';
import { summarizeScores } from '@mia/metrics';
import { readScoreFile } from './read-score-file';
import { tableStatistics, yieldToSignals } from './table-statistics';
import { isTokenScoresInput, tokenScoresCommand } from './token-scores';
import { scoresFileValidity, validityLines } from './audit-validity-lines';

const pct = (v: number) => `${(100 * v).toFixed(1)}%`;

/** The statistics `mia attack` reports, in this order, when the table allows them. */
const ATTACK_STATISTICS: readonly StatisticName[] = ['loss', 'confidence', 'maxConfidence', 'entropy', 'modifiedEntropy', 'phi', 'correctness'];

/** Options of `mia attack`. */
export interface AttackScoresOptions {
  readonly scores: string;
  readonly json?: boolean;
  /** `json`, `csv` or `npy`. @default the extension, checked against the content; else the content */
  readonly format?: string;
  /** `.npy` inputs: the labels and the 0/1 membership arrays. */
  readonly labels?: string;
  readonly members?: string;
  /** What a `.npy` score array holds. @default logits for 2-D arrays, losses for 1-D */
  readonly kind?: 'logits' | 'probabilities' | 'losses' | 'scores';
  /** Per-token log-probabilities (JSONL) only: each language-model attack's params by name, as JSON. */
  readonly params?: string;
}

/**
 * `mia attack --scores <file>`: threshold-free score-level audit (AUC, best advantage, TPR@FPR per
 * statistic). A CSV is streamed into typed columns and each statistic is summarised without its ROC
 * curve, so memory stays at about the columns plus two score arrays (10 million loss rows: ~300 MB).
 */
export async function attackScoresCommand(opts: AttackScoresOptions): Promise<void> {
  // A language model's per-token log-probabilities (JSONL, or --format jsonl): their own attacks.
  if (await isTokenScoresInput(opts)) return tokenScoresCommand(opts);
  const table = await readScoreFile(opts.scores, {
    command: 'attack',
    flag: '--scores',
    format: opts.format,
    labels: opts.labels,
    members: opts.members,
    kind: opts.kind,
    onNote: (line) => process.stderr.write(`mia ${line}\n`),
  });
  const { statistics, note } = tableStatistics(table, ATTACK_STATISTICS);
  const rows: Array<Record<string, unknown>> = [];
  for (const { name, scores } of statistics) {
    await yieldToSignals();
    const m = summarizeScores(scores(), table.isMember, { fprs: [0.01, 0.001, 0] });
    rows.push({
      attack: name,
      auc: m.auc,
      advantage: m.advantage,
      balancedAccuracy: m.balancedAccuracy,
      tprAtFpr: m.tprAtFpr.map((t) => ({ fpr: t.fpr, tpr: t.tpr, achievedFpr: t.achievedFpr })),
    });
  }
  const counts = membership(table);
  // The audit's validity: the labels-only blind baseline against the best statistic, the TPR columns' FPR resolution.
  const validity = scoresFileValidity(
    table,
    statistics.map((s) => ({ name: s.name, scores: s.scores() })),
    [0.01, 0.001],
    'the TPR@1% and TPR@0.1% columns',
  );
  if (opts.json === true) {
    process.stdout.write(
      `${JSON.stringify({ file: opts.scores, members: counts, rows, ...(note === undefined ? {} : { notes: [note] }), validity }, null, 2)}\n`,
    );
    return;
  }
  process.stdout.write(
    `score-level audit of ${opts.scores}: ${counts.members} members, ${counts.nonMembers} non-members (best-threshold numbers are optimistic: thresholds chosen on the same data)\n`,
  );
  process.stdout.write(`  ${'attack'.padEnd(16)} ${'AUC'.padStart(6)} ${'adv'.padStart(7)} ${'TPR@1%'.padStart(7)} ${'TPR@0.1%'.padStart(9)}\n`);
  for (const r of rows) {
    const t = r.tprAtFpr as Array<{ tpr: number }>;
    process.stdout.write(
      `  ${String(r.attack).padEnd(16)} ${(r.auc as number).toFixed(3).padStart(6)} ${pct(r.advantage as number).padStart(7)} ${pct(t[0]!.tpr).padStart(7)} ${pct(t[1]!.tpr).padStart(9)}\n`,
    );
  }
  if (note !== undefined) process.stdout.write(`note: ${note}\n`);
  for (const line of validityLines(validity)) process.stdout.write(`${line}\n`);
}

function membership(table: ScoreTable) {
  let members = 0;
  for (const m of table.isMember) members += m;
  return { members, nonMembers: table.isMember.length - members };
}
