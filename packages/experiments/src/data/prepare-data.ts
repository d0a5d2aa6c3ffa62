import { InvalidArgumentError } from '@mia/core';
import { CCL4, CCL5, PAST6, RELAX5, loadDataset, type Dataset, type DatasetName, type Partition, type ProgressCallback } from '@mia/data';
import { contentHash } from '../store/canonical-hash';
import type { ExperimentConfig } from '../schema/run-schema';
import { capAndValidation } from './validation-slice';

const PRESETS = { CCL4, CCL5, PAST6, RELAX5 } as const;

/** The dataset and the seeded partition of a run (with the reduced-scale cap applied). */
export interface PreparedData {
  readonly dataset: Dataset;
  readonly partition: Partition;
  /** Content hash of the index arrays (part of every cache key). */
  readonly digest: string;
}

/**
 * Loads the config's dataset (real data from `dataDir`/the npm copy, or a seeded stand-in) and
 * splits it with the partition preset (docs/protocol.md §1.8), capped per role and with the optional
 * validation slice of docs/protocol.md A11 ({@link capAndValidation}).
 * @throws InvalidDatasetError (from `@mia/data`) when the data is not available here, saying what to do.
 */
export async function prepareData(config: ExperimentConfig, options: { dataDir?: string; onProgress?: ProgressCallback } = {}): Promise<PreparedData> {
  const dataDir = options.dataDir ?? config.dataset.dataDir;
  const dataset = await loadDataset(config.dataset.name as DatasetName, { dataDir, size: config.dataset.size, onProgress: options.onProgress });
  const preset = PRESETS[config.partition.preset];
  if (preset === undefined)
    throw new InvalidArgumentError(`partition.preset must be one of ${Object.keys(PRESETS).join(', ')}, got ${JSON.stringify(config.partition.preset)}`);
  const full = preset.split(dataset.size, config.seed);
  const partition: Partition = capAndValidation(full, config.partition.maxPerRole, config.partition.validation);
  return { dataset, partition, digest: contentHash({ preset: partition.preset, n: partition.n, seed: partition.seed, roles: partition.roles }) };
}
