import type { ExperimentConfig } from '@mia/experiments';
import { plannedSeedRuns, type PlannedRun, type ReproductionScale } from '@mia/experiments/reproduce';
import { DATASET_COLUMNS, columnConfig, coreDefenses, type DatasetColumn } from './configs';

/** The run id of a dataset column's config (`evaluateColumns`): `cifar10-core`, `purchase100-table4`, … */
export const columnRunId = (column: DatasetColumn, suffix: string): string => `${column.toLowerCase().replace(/[^a-z0-9]+/g, '')}-${suffix}`;

/**
 * Every run `evaluateColumns(ctx, defensesOf, suffix, seeds)` asks for at a scale: each dataset
 * column's config ({@link columnConfig}) with its `seeds` training seeds, for a reproduction's
 * `plan` (the configs `redecide` compares with the stored runs before any model is loaded).
 */
export function plannedColumnRuns(
  scale: ReproductionScale,
  defensesOf: (column: DatasetColumn, scale: ReproductionScale) => ExperimentConfig['defenses'] = coreDefenses,
  suffix = 'core',
  seeds = 1,
): PlannedRun[] {
  return DATASET_COLUMNS.flatMap((column) =>
    plannedSeedRuns(columnRunId(column, suffix), columnConfig(column, scale, defensesOf(column, scale), suffix), seeds),
  );
}
