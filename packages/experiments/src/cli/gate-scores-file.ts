// `mia gate <scores-file>`: the upper confidence bounds of the attacks a scores file allows, against the ceilings.
import { basename } from 'node:path';
import type { StatisticName } from '@mia/attacks';
import { bootstrapAucAndAdvantageOfEach, clopperPearson, dkwAdvantageInterval, seededUniform, summarizeScores, type ScoreSummary } from '@mia/metrics';
import type { GateCeilings, GateOutcome } from './gate-outcome';
import { readScoreFile, type ReadScoreFileOptions } from './read-score-file';
import { tableStatistics, yieldToSignals } from './table-statistics';
import { scoresFileValidity } from './audit-validity-lines';

/** The statistics the gate bounds, when the table allows them. */
const GATE_STATISTICS: readonly StatisticName[] = ['loss', 'modifiedEntropy', 'entropy', 'maxConfidence', 'correctness'];

/**
 * Up to this many examples (members + non-members) the advantage's upper bound is a stratified
 * percentile bootstrap (1000 resamples, seed 0); above it, the distribution-free DKW–Massart bound:
 * a bootstrap costs a pass over every example per resample (10⁹ passes at 10⁶ rows), DKW nothing.
 */
export const GATE_BOOTSTRAP_LIMIT = 200_000;
const RESAMPLES = 1000;

interface Check {
  readonly metric: string;
  readonly attack: string;
  readonly estimate: number;
  readonly upper: number;
  readonly ceiling: number;
  readonly how: string;
}

const pct = (v: number) => `${+(100 * v).toFixed(2)} %`;

/**
 * The upper bootstrap bound of each score set's advantage, computed in slices of resamples drawn
 * from one generator, so signals are handled between slices; the draws, and so the bounds, are
 * those of one `bootstrapAucAndAdvantageOfEach` call with seed 0 (internal).
 */
async function bootstrapUppers(sets: Float64Array[], isMember: Uint8Array, confidence: number): Promise<number[]> {
  const random = seededUniform(0);
  const slice = Math.max(1, Math.min(RESAMPLES, Math.floor(5e7 / (isMember.length * sets.length))));
  const samples = sets.map(() => new Float64Array(RESAMPLES));
  for (let done = 0; done < RESAMPLES; done += slice) {
    await yieldToSignals();
    const resamples = Math.min(slice, RESAMPLES - done);
    bootstrapAucAndAdvantageOfEach(sets, isMember, { resamples, random, confidence }).forEach((r, s) => samples[s]!.set(r.advantage.samples, done));
  }
  // numpy's linear quantile at 1 − α/2, as the percentile intervals of @mia/metrics.
  return samples.map((values) => {
    const sorted = values.sort();
    const position = (1 - (1 - confidence) / 2) * (sorted.length - 1);
    const below = Math.floor(position);
    const above = Math.min(below + 1, sorted.length - 1);
    return sorted[below]! + (position - below) * (sorted[above]! - sorted[below]!);
  });
}

/**
 * Gates a scores file: for each ceiling, the attack with the highest upper confidence bound. The
 * advantage's bound is a bootstrap up to {@link GATE_BOOTSTRAP_LIMIT} examples and the DKW–Massart
 * bound above; the TPR at an FPR's is Clopper–Pearson at the ROC vertex chosen on the same data.
 */
export async function gateScoresFile(
  file: string,
  ceilings: GateCeilings,
  opts: Pick<ReadScoreFileOptions, 'format' | 'labels' | 'members' | 'kind'> = {},
): Promise<GateOutcome> {
  const table = await readScoreFile(file, { ...opts, command: 'gate', flag: 'scores file', onNote: (line) => process.stderr.write(`mia ${line}\n`) });
  const { statistics } = tableStatistics(table, GATE_STATISTICS);
  const n = table.isMember.length;
  const bootstrap = ceilings.advantage !== undefined && n <= GATE_BOOTSTRAP_LIMIT;
  const summaries: Array<{ name: string; summary: ScoreSummary }> = [];
  const sets: Float64Array[] = [];
  const scored: Array<{ name: string; scores: Float64Array }> = [];
  for (const { name, scores } of statistics) {
    await yieldToSignals();
    const values = scores();
    summaries.push({ name, summary: summarizeScores(values, table.isMember, { fprs: ceilings.tprAtFpr.map(([fpr]) => fpr) }) });
    if (bootstrap) sets.push(values);
    scored.push({ name, scores: values });
  }
  const validity = scoresFileValidity(
    table,
    scored,
    ceilings.tprAtFpr.map(([fpr]) => fpr),
    '--max-tpr-at-fpr',
  );
  const { confidence } = ceilings;
  const checks: Check[] = [];
  const worst = (metric: string, ceiling: number, bound: (s: ScoreSummary, k: number) => { estimate: number; upper: number; how: string }) => {
    const all = summaries.map(({ name, summary }, k) => ({ metric, ceiling, attack: name, ...bound(summary, k) }));
    checks.push(all.reduce((w, c) => (c.upper > w.upper ? c : w)));
  };
  if (ceilings.advantage !== undefined) {
    const uppers = bootstrap ? await bootstrapUppers(sets, table.isMember, confidence) : undefined;
    worst('advantage', ceilings.advantage, (s, k) => ({
      estimate: s.advantage,
      upper: uppers?.[k] ?? dkwAdvantageInterval(s.advantage, s.numMembers, s.numNonMembers, { confidence }).upper,
      how: uppers === undefined ? `DKW bound, ${n} examples` : 'bootstrap',
    }));
  }
  ceilings.tprAtFpr.forEach(([fpr, maxTpr], j) => {
    worst(`TPR@${pct(fpr)} FPR`, maxTpr, (s) => {
      const t = s.tprAtFpr[j]!;
      return { estimate: t.tpr, upper: clopperPearson(t.truePositives, t.numMembers, { confidence }).upper, how: 'Clopper–Pearson' };
    });
  });
  const failed = checks.filter((c) => c.upper > c.ceiling);
  const describe = (c: Check, op: string) =>
    `${c.metric} upper bound ${pct(c.upper)} ${op} ceiling ${pct(c.ceiling)} (${c.attack}, estimate ${pct(c.estimate)}, ${c.how})`;
  const level = `${+(100 * confidence).toFixed(2)} % confidence`;
  return failed.length > 0
    ? { exitCode: 1, line: `FAIL ${basename(file)} leaks more than allowed at ${level}: ${failed.map((c) => describe(c, '>')).join('; ')}`, validity }
    : { exitCode: 0, line: `PASS ${basename(file)} leaks at most the ceilings at ${level}: ${checks.map((c) => describe(c, '≤')).join('; ')}`, validity };
}
