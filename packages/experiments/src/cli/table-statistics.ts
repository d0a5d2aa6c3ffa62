// The membership scores `mia attack` and `mia gate` compute from a scores file.
import { signalsFromScoreTable, signedStatistic, type ModelSignals, type ScoreTable, type StatisticName } from '@mia/attacks';

/** One attack on a scores file: its name and, computed when asked, its scores (higher = member). */
export interface TableStatistic {
  readonly name: string;
  readonly scores: () => Float64Array;
}

/**
 * The statistics of `names` a table allows, in that order: a table of ready-made scores gives
 * `scores`; a table of losses gives `loss` alone (confidence `e^{−ℓ}` and φ are decreasing
 * functions of the loss: the same ranking, the same numbers), with a note saying so; logits or
 * probabilities give each statistic of `names` their signals have.
 */
export function tableStatistics(table: ScoreTable, names: readonly StatisticName[]): { statistics: TableStatistic[]; note?: string } {
  if (table.scores !== undefined) return { statistics: [{ name: 'scores', scores: () => table.scores! }] };
  if (table.losses !== undefined) {
    const losses = table.losses;
    return {
      statistics: [{ name: 'loss', scores: () => losses.map((l) => -l) }],
      note: 'losses only: the confidence and φ attacks rank the examples as the loss attack does (decreasing functions of the loss), so they are not listed',
    };
  }
  const signals = signalsFromScoreTable(table);
  const needs: Partial<Record<StatisticName, keyof ModelSignals>> = {
    correctness: 'correct',
    maxConfidence: 'maxProbability',
    entropy: 'entropy',
    modifiedEntropy: 'modifiedEntropy',
    gradientNorm: 'gradientNorm',
    queryAccuracy: 'queries',
  };
  return {
    statistics: names
      .filter((name) => needs[name] === undefined || signals[needs[name]!] !== undefined)
      .map((name) => ({ name, scores: () => signedStatistic(signals, name) })),
  };
}

/** Lets a pending signal handler run between long computations (internal). */
export const yieldToSignals = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
