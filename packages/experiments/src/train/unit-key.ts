import { deriveSeed } from '@mia/core';
import { trainingSeedOf, type DefenseConfig, type ExperimentConfig } from '../config/schema';
import type { PreparedData } from '../data/prepare-data';
import { contentHash } from '../store/canonical-hash';
import { packageVersions } from '../store/versions';
import type { UnitRole } from './unit-roles';

/**
 * The content address of a unit: dataset, split, model, training, defense, role seed (from the
 * training seed, {@link trainingSeedOf}) and code versions.
 */
export function unitKey(config: ExperimentConfig, data: PreparedData, defense: Pick<DefenseConfig, 'name' | 'params'>, role: UnitRole): string {
  return contentHash({
    kind: 'trained-model-1',
    role,
    seed: deriveSeed(trainingSeedOf(config), role),
    dataset: { name: data.dataset.name, source: data.dataset.source, size: data.dataset.size },
    partition: data.digest,
    model: config.model,
    training: config.training,
    defense: { name: defense.name, params: defense.params },
    versions: packageVersions(),
  });
}
