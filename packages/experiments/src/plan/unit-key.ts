import { deriveSeed } from '@mia/core';
import { trainingSeedOf, type DefenseConfig, type ExperimentConfig } from '../schema/run-schema';
import type { PreparedData } from '../data/prepare-data';
import { contentHash } from '../store/canonical-hash';
import { packageVersions } from '../store/versions';
import { activePrecision } from '../train/backend-choice';
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
 * Everything a unit's cache key holds but its defense: the role and its seed, the dataset, the
 * partition, the model, the training, the code versions (and bf16, a reference model's examples).
 * The same unit trained with another defense (a two-phase defense's base) is keyed by
 * {@link keyWithDefense} of the same basis. Plain data: it crosses to worker threads and processes.
 */
export type UnitKeyBasis = Readonly<Record<string, unknown>>;

/**
 * The key basis of a unit (see {@link UnitKeyBasis}); `reference` gives a reference model's members
 * and scored examples, which are in its key.
 */
export function unitKeyBasis(
  config: ExperimentConfig,
  data: PreparedData,
  role: UnitRole,
  reference?: { readonly memberIdx: readonly number[]; readonly nonMemberIdx: readonly number[] },
): UnitKeyBasis {
  return {
    kind: 'trained-model-1',
    role,
    seed: deriveSeed(unitSeedOf(config, role), role),
    dataset: { name: data.dataset.name, source: data.dataset.source, size: data.dataset.size },
    partition: data.digest,
    model: config.model,
    training: config.training,
    versions: packageVersions(),
    ...(activePrecision() === 'bf16' ? { precision: 'bf16' } : {}),
    ...(reference === undefined ? {} : { members: contentHash(reference.memberIdx), scored: contentHash(reference.nonMemberIdx) }),
  };
}

/** The content address of the unit of `basis` trained with `defense` (its name and params). */
export const keyWithDefense = (basis: UnitKeyBasis, defense: Pick<DefenseConfig, 'name' | 'params'>): string =>
  contentHash({ ...basis, defense: { name: defense.name, params: defense.params } });

/**
 * The content address of a unit: dataset, split, model, training, defense, role seed (from the
 * training seed, {@link trainingSeedOf}) and code versions. A reference model's key also holds the
 * digests of the examples it trains on and is scored on (so `references.count`, `scheme` and `seed`
 * are in it through its keep mask, and a `paired` model shared by two counts is trained once).
 * A model trained in bf16 (native backend, {@link activePrecision}) also has `precision: 'bf16'` in
 * its key, so fp32 and bf16 models never mix; fp32 keys are as before. The run's plan
 * (`plan-run.ts`) is the one caller: everything else reads a unit's key from the plan.
 */
export function unitKey(config: ExperimentConfig, data: PreparedData, defense: Pick<DefenseConfig, 'name' | 'params'>, role: UnitRole): string {
  const reference = isReferenceRole(role) ? referenceIndices(config, data.partition.roles, role) : undefined;
  return keyWithDefense(unitKeyBasis(config, data, role, reference), defense);
}
