import type { DefenseConfig, ExperimentConfig } from '../schema/run-schema';
import type { PreparedData } from '../data/prepare-data';
import type { ArtifactStore } from '../store/artifact-store';
import { isReferenceRole, referenceRoles } from './reference-membership';
import type { TrainUnitSpec } from './train-unit';
import { unitKey } from './unit-key';
import { unitRoles, type NeedsShadow } from './unit-roles';

/**
 * What the reference models train with: no defense. LiRA and RMIA model the target's training
 * algorithm with the attacker's own reference models (docs/protocol.md §3.8, §3.9); the papers train
 * them undefended on the target's architecture, and one set serves every defense of the run.
 */
export const REFERENCE_DEFENSE: DefenseConfig = { name: 'none', label: 'references', params: {} };

/** The `defenseIndex` of a reference unit: it belongs to no defense of the run. */
export const REFERENCE_UNIT_INDEX = -1;

/** The defense a unit trains with: its defense's, or {@link REFERENCE_DEFENSE} for a reference model. */
export function unitDefense(config: ExperimentConfig, unit: TrainUnitSpec): DefenseConfig {
  if (isReferenceRole(unit.role)) return REFERENCE_DEFENSE;
  const defense = config.defenses[unit.defenseIndex];
  if (defense === undefined) throw new RangeError(`unitDefense: unit.defenseIndex must be < ${config.defenses.length}, got ${unit.defenseIndex}`);
  return defense;
}

/** `<defense label>/<role>` (`references/reference-3`), for progress lines. */
export const unitLabel = (config: ExperimentConfig, unit: TrainUnitSpec): string => {
  const defense = unitDefense(config, unit);
  return `${defense.label ?? defense.name}/${unit.role}`;
};

/**
 * Every unit a (grid-expanded) config trains: the target of each defense and its shadows when an
 * attack of the run calibrates on them, then the reference models (once per run).
 * @param needsShadow - whether an attack (by name) needs the shadow models (`attackNeedsShadow`).
 */
export function runUnits(config: ExperimentConfig, needsShadow: NeedsShadow): TrainUnitSpec[] {
  return [
    ...config.defenses.flatMap((_, defenseIndex) => unitRoles(config, needsShadow).map((role) => ({ defenseIndex, role }))),
    ...referenceRoles(config).map((role) => ({ defenseIndex: REFERENCE_UNIT_INDEX, role })),
  ];
}

/** The units of {@link runUnits} that `store` does not hold yet (what the worker pool or the queue trains). */
export async function missingUnits(config: ExperimentConfig, data: PreparedData, store: ArtifactStore, needsShadow: NeedsShadow): Promise<TrainUnitSpec[]> {
  const missing: TrainUnitSpec[] = [];
  for (const unit of runUnits(config, needsShadow))
    if ((await store.read(unitKey(config, data, unitDefense(config, unit), unit.role))) === undefined) missing.push(unit);
  return missing;
}
