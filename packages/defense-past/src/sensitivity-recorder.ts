import { check, type Classifier, type LabeledData, type ParameterKind, type TrainingPlugin } from '@mia/core';
import { computeSensitivity, type ComputeSensitivityOptions } from './compute-sensitivity';
import { summarizeSensitivity, type SensitivityStats, type SummarizeSensitivityOptions } from './summarize-sensitivity';

/** One point of a {@link sensitivityRecorder} curve. */
export interface SensitivityRecord {
  /** Epochs completed in this run when measured (0 = before the first epoch). */
  readonly epochsDone: number;
  /** Full-set loss gap `G` at that time (mode of `options.training`). */
  readonly lossGap: number;
  readonly overall: SensitivityStats;
  /** Per-module statistics (Fig. 10 plots each module's `mean` over epochs). */
  readonly modules: ReadonlyArray<SensitivityStats & { readonly name: string; readonly kind: ParameterKind }>;
  /** Per-parameter values of the modules in `keepValuesOf` (Fig. 12, 13a), keyed by module name. */
  readonly values: Readonly<Record<string, Float32Array>>;
}

/** Options of {@link sensitivityRecorder}. */
export interface SensitivityRecorderOptions extends ComputeSensitivityOptions, SummarizeSensitivityOptions {
  readonly members: LabeledData;
  readonly nonMembers: LabeledData;
  /** Measure every this many epochs (and after the last one). @default 1 */
  readonly every?: number;
  /** Also measure before the first epoch. @default true */
  readonly atStart?: boolean;
  /** Module names whose per-parameter values are kept in each record (e.g. `['fc']`). @default none */
  readonly keepValuesOf?: readonly string[];
}

/**
 * A plugin that measures the privacy sensitivity of every module over the whole member and
 * non-member sets at epoch ends (PAST Fig. 10: per-module sensitivity during PAST; Fig. 12:
 * migration of the fc layer's sensitivity). Each measurement costs about one extra forward/backward
 * pass over both sets; use `every` on big runs.
 * @returns The plugin with its `records` array.
 * @throws InvalidArgumentError when `every` is not a positive integer.
 * @see docs/protocol.md §5 "Privacy sensitivity distribution"; PAST App. D, F.1.
 */
export function sensitivityRecorder(options: SensitivityRecorderOptions): TrainingPlugin & { readonly records: SensitivityRecord[] } {
  const every = options.every ?? 1;
  check(Number.isInteger(every) && every > 0, 'sensitivityRecorder', 'every', 'a positive integer', every);
  const records: SensitivityRecord[] = [];
  const measure = (model: Classifier, epochsDone: number) => {
    const result = computeSensitivity(model, options.members, options.nonMembers, options);
    const { overall, modules } = summarizeSensitivity(result, options);
    const values: Record<string, Float32Array> = {};
    const key = options.values ?? 'gradientGap';
    for (const g of result.groups) if (options.keepValuesOf?.includes(g.name) === true) values[g.name] = g[key];
    records.push({ epochsDone, lossGap: result.lossGap, overall, modules, values });
  };
  return {
    name: 'sensitivity-recorder',
    records,
    onTrainStart({ model, epoch }) {
      if (options.atStart !== false) measure(model, epoch);
    },
    onEpochEnd({ model, epoch, epochs }) {
      if ((epoch + 1) % every === 0 || epoch + 1 === epochs) measure(model, epoch + 1);
    },
  };
}
