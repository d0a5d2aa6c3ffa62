import { deriveSeed } from '@mia/core';
import { trainingSeedOf, type DefenseConfig, type ExperimentConfig } from '../schema/run-schema';
import type { PreparedData } from '../data/prepare-data';
import { contentHash } from '../store/canonical-hash';
import { packageVersions } from '../store/versions';
import { activePrecision } from './backend-choice';
import { isReferenceRole, referenceIndices } from './reference-membership';
import type { UnitRole } from './unit-roles';

/**
 * The seed a unit of `role` trains with: the run's training seed ({@link trainingSeedOf}), except the
 * shadow models of a run with `shadowSeed: 'partition'`, which train with the run's `seed`, so the
 * training seeds of one `runSeeds` group share them (docs/protocol.md §5.2).
 */
export function unitSeedOf(config: Pick<ExperimentConfig, 'seed' | 'trainingSeed' | 'shadowSeed'>, role: UnitRole): number {
  const shadow = role !== 'target' && !isReferenceRole(role);
  return shadow && config.shadowSeed === 'partition' ? config.seed : trainingSeedOf(config);
}

/**
 * The content address of a unit: dataset, split, model, training, defense, role seed (from the
 * training seed, {@link trainingSeedOf}) and code versions. A reference model's key also holds the
 * digests of the examples it trains on and is scored on (so `references.count`, `scheme` and `seed`
 * are in it through its keep mask, and a `paired` model shared by two counts is trained once).
 * A model trained in bf16 (native backend, {@link activePrecision}) also has `precision: 'bf16'` in
 * its key, so fp32 and bf16 models never mix; fp32 keys are as before.
 */
export function unitKey(config: ExperimentConfig, data: PreparedData, defense: Pick<DefenseConfig, 'name' | 'params'>, role: UnitRole): string {
  const reference = isReferenceRole(role) ? referenceIndices(config, data.partition.roles, role) : undefined;
  return contentHash({
    kind: 'trained-model-1',
    role,
    seed: deriveSeed(unitSeedOf(config, role), role),
    dataset: { name: data.dataset.name, source: data.dataset.source, size: data.dataset.size },
    partition: data.digest,
    model: config.model,
    training: config.training,
    defense: { name: defense.name, params: defense.params },
    versions: packageVersions(),
    ...(activePrecision() === 'bf16' ? { precision: 'bf16' } : {}),
    ...(reference === undefined ? {} : { members: contentHash(reference.memberIdx), scored: contentHash(reference.nonMemberIdx) }),
  });
}
