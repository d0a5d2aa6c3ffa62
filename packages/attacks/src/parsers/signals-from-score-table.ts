import { InvalidArgumentError } from '@mia/core';
import type { ModelSignals } from '../signals/model-signals';
import { signalsFromLogits } from '../signals/signals-from-logits';
import { signalsFromLosses, signalsFromProbabilities } from '../signals/signals-from-losses';
import type { ScoreTable } from './score-table';

/**
 * The {@link ModelSignals} of a parsed score file (logits, probabilities or losses).
 * @throws InvalidArgumentError when the table holds ready-made scores only (evaluate those with
 *   `summarizeAttack` from `@mia/metrics` directly).
 */
export function signalsFromScoreTable(table: ScoreTable): ModelSignals {
  if (table.logits !== undefined) return signalsFromLogits(table.logits, table.labels, table.numClasses);
  if (table.probabilities !== undefined) return signalsFromProbabilities(table.probabilities, table.labels, table.numClasses);
  if (table.losses !== undefined) return signalsFromLosses(table.losses, table.labels, table.numClasses);
  throw new InvalidArgumentError('signalsFromScoreTable: the table holds ready-made scores only; pass them to summarizeAttack from @mia/metrics');
}
