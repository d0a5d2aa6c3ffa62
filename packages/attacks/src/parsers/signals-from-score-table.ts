import { InvalidArgumentError } from '@mia/core';
import type { ModelSignals } from '../signals/model-signals';
import { signalsFromLogits } from '../signals/signals-from-logits';
import { signalsFromLosses, signalsFromProbabilities } from '../signals/signals-from-losses';
import type { ScoreTable } from './score-table';

/**
 * The {@link ModelSignals} of a parsed score file (logits, probabilities or losses).
 * @throws InvalidArgumentError when the table holds ready-made scores only (evaluate those with
 *   `summarizeAttack` from `@mia/metrics` directly), or losses without labels (signals carry each
 *   example's label for the per-class attacks; the loss attack alone needs none: `summarizeAttack`
 *   of the negated losses).
 */
export function signalsFromScoreTable(table: ScoreTable): ModelSignals {
  const fn = 'signalsFromScoreTable';
  if (table.scores !== undefined)
    throw new InvalidArgumentError(`${fn}: the table holds ready-made scores only; pass them to summarizeAttack from @mia/metrics`);
  if (table.labels === undefined)
    throw new InvalidArgumentError(
      `${fn}: the table has no labels (its file has no label column), and signals need them for the per-class threshold attacks; add the labels, or evaluate the loss attack alone with summarizeAttack(losses.map((l) => -l), isMember) from @mia/metrics`,
    );
  if (table.logits !== undefined) return signalsFromLogits(table.logits, table.labels, table.numClasses);
  if (table.probabilities !== undefined) return signalsFromProbabilities(table.probabilities, table.labels, table.numClasses);
  return signalsFromLosses(table.losses!, table.labels, table.numClasses);
}
