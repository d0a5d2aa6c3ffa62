import type { TrainingPlugin } from '@mia/core';
import { giniAbs, giniShifted } from '@mia/metrics';
import { parameterValues, type ParameterValuesOptions } from './parameter-values';

/** One point of a {@link giniRecorder} curve. */
export interface GiniRecord {
  /** Epochs completed in this run when measured (0 = before the first epoch). */
  readonly epochsDone: number;
  /** PAST's shifted-signed Gini ({@link giniShifted}); decreases under sparsification. */
  readonly giniShifted: number;
  /** Standard |w| Gini ({@link giniAbs}); increases under sparsification. */
  readonly giniAbs: number;
}

/**
 * A plugin that records both Gini indices of the parameters before the first epoch and after every
 * epoch (PAST Fig. 2b, "Gini index during the regularization process").
 * @param options - Which parameters ({@link ParameterValuesOptions}). @default all trainable parameters
 * @returns The plugin with its `records` array.
 * @see docs/protocol.md §5 "Gini index", §7 A33.
 */
export function giniRecorder(options: ParameterValuesOptions = {}): TrainingPlugin & { readonly records: GiniRecord[] } {
  const records: GiniRecord[] = [];
  const measure = (model: Parameters<typeof parameterValues>[0], epochsDone: number) => {
    const w = parameterValues(model, options);
    records.push({ epochsDone, giniShifted: giniShifted(w), giniAbs: giniAbs(w) });
  };
  return {
    name: 'gini-recorder',
    records,
    onTrainStart: ({ model, epoch }) => measure(model, epoch),
    onEpochEnd: ({ model, epoch }) => measure(model, epoch + 1),
  };
}
