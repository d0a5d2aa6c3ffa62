import type { DefenseConfig, ExperimentConfig } from '../schema/run-schema';
import { dataRole, isReferenceRole, type UnitRole } from '../schema/unit-role';
import type { PreparedData } from '../data/prepare-data';
import type { ArtifactStore } from '../store/artifact-store';
import type { TrainableUnit } from '../train/train-unit';
import { keptExamples, referenceExamples, referenceKeep, referenceRoles } from './reference-membership';
import { keyWithDefense, unitKeyBasis } from './unit-key';
import { roleIndices, shadowRoles, type NeedsShadow } from './unit-roles';

/**
 * What the reference models train with: no defense. LiRA and RMIA model the target's training
 * algorithm with the attacker's own reference models (docs/protocol.md §3.8, §3.9); the papers train
 * them undefended on the target's architecture, and one set serves every defense of the run.
 */
export const REFERENCE_DEFENSE: DefenseConfig = { name: 'none', label: 'references', params: {} };

/** The `defenseIndex` of a reference unit: it belongs to no defense of the run. */
export const REFERENCE_UNIT_INDEX = -1;

/** Which unit of a run: its defense's index in `config.defenses` ({@link REFERENCE_UNIT_INDEX} for a reference model) and its role. */
export interface UnitSpec {
  readonly defenseIndex: number;
  readonly role: UnitRole;
}

/** One unit of a run's plan: which it is, and everything training, caching and attacking it reads. */
export interface PlannedUnit extends TrainableUnit, UnitSpec {}

/** One defense of a run's plan: its target and the shadows its attacks calibrate on. */
export interface DefensePlan {
  readonly index: number;
  readonly defense: DefenseConfig;
  /** `label ?? name`, the row's name. */
  readonly label: string;
  readonly target: PlannedUnit;
  /** `config.shadowModels` shadows (pooled) when an attack of the run calibrates on them, else none. */
  readonly shadows: readonly PlannedUnit[];
}

/**
 * A run's plan, computed once from its (grid-expanded) config and data by {@link planRun}: every unit
 * with its defense, role, key, seed and examples. The runner, the worker pool, the queue, the attack
 * cache, the signals and a reproduction's model loading read it; none recomputes a key or a role.
 */
export interface RunPlan {
  readonly config: ExperimentConfig;
  readonly data: PreparedData;
  readonly defenses: readonly DefensePlan[];
  /** The run's reference models (`references.count`; none without it or with `references.import`). */
  readonly references: readonly PlannedUnit[];
  /** Every unit: each defense's target and shadows, in defense order, then the references. */
  readonly units: readonly PlannedUnit[];
  /** The shadow roles every defense trains (empty when no attack calibrates on shadows). */
  readonly shadowRoles: readonly UnitRole[];
  /** The reference models' keep masks over their pool (`keep[k][i] = 1`: model k trains on pool example i). */
  readonly referenceKeep: readonly Uint8Array[];
  /** The unit of a spec. @throws RangeError when the run has no such unit. */
  unit(spec: UnitSpec): PlannedUnit;
}

/**
 * The plan of a run: every unit it trains, keyed and with its examples (docs/protocol.md §1, §3.2,
 * §3.8). Which attacks calibrate on shadow models is the attack registry's knowledge, above this
 * folder: the caller passes its lookup (`attackNeedsShadow`).
 * @param config - the grid-expanded, checked config.
 * @param data - its dataset and partition (`prepareData`).
 */
export function planRun(config: ExperimentConfig, data: PreparedData, needsShadow: NeedsShadow): RunPlan {
  const roles = data.partition.roles;
  const shadows = shadowRoles(config, needsShadow);
  const defenses = config.defenses.map((defense, index): DefensePlan => {
    const unitOf = (role: UnitRole) => plannedUnit(config, data, { defenseIndex: index, role }, defense, roleIndices(config.seed, roles, role));
    return { index, defense, label: defense.label ?? defense.name, target: unitOf('target'), shadows: shadows.map(unitOf) };
  });
  const { keep, references } = planReferences(config, data);
  const units = [...defenses.flatMap((d) => [d.target, ...d.shadows]), ...references];
  const bySpec = new Map(units.map((u) => [specId(u), u]));
  return {
    config,
    data,
    defenses,
    references,
    units,
    shadowRoles: shadows,
    referenceKeep: keep,
    unit: (spec) => {
      const found = bySpec.get(specId(spec));
      if (found === undefined) throw new RangeError(`RunPlan.unit: ${config.name} has no unit ${specId(spec)} (defense index:role)`);
      return found;
    },
  };
}

type Examples = { readonly memberIdx: readonly number[]; readonly nonMemberIdx: readonly number[] };

const specId = (spec: UnitSpec) => `${spec.defenseIndex}:${spec.role}`;

/** One unit of the plan: its key (from its basis and defense), seed, examples and label. */
function plannedUnit(config: ExperimentConfig, data: PreparedData, spec: UnitSpec, defense: DefenseConfig, examples: Examples): PlannedUnit {
  const { role } = spec;
  const roles = data.partition.roles;
  const basis = unitKeyBasis(config, data, role, isReferenceRole(role) ? examples : undefined);
  const validationIdx = role === 'target' ? roles.validation : undefined;
  const inferenceIdx = roles[`${dataRole(role)}_inference`] ?? roles.inference;
  return {
    ...spec,
    defense,
    label: `${defense.label ?? defense.name}/${role}`,
    key: keyWithDefense(basis, defense),
    seed: basis.seed as number,
    memberIdx: examples.memberIdx,
    nonMemberIdx: examples.nonMemberIdx,
    ...(validationIdx === undefined ? {} : { validationIdx }),
    ...(inferenceIdx === undefined ? {} : { inferenceIdx }),
    keyWith: (other) => keyWithDefense(basis, other),
  };
}

/**
 * The plan of a run's reference models alone (they do not depend on its attacks or defenses,
 * docs/protocol.md §1.7): model k trains on the pool examples its keep row marks and is scored on the
 * rest of the pool, then the population. The masks are drawn once, seeded by the config's `seed`.
 */
export function planReferences(config: ExperimentConfig, data: PreparedData): { keep: Uint8Array[]; references: PlannedUnit[] } {
  const roles = referenceRoles(config);
  if (roles.length === 0) return { keep: [], references: [] };
  const { pool, population } = referenceExamples(data.partition.roles);
  const keep = referenceKeep(pool.length, roles.length, config.references?.scheme ?? 'carlini', config.seed);
  const references = roles.map((role, k) =>
    plannedUnit(config, data, { defenseIndex: REFERENCE_UNIT_INDEX, role }, REFERENCE_DEFENSE, keptExamples(pool, population, keep[k]!)),
  );
  return { keep, references };
}

/** The units of `plan` (all of them by default) that `store` does not hold yet: what a placement trains. */
export async function missingUnits(plan: RunPlan, store: ArtifactStore, units: readonly PlannedUnit[] = plan.units): Promise<PlannedUnit[]> {
  const missing: PlannedUnit[] = [];
  for (const unit of units) if ((await store.read(unit.key)) === undefined) missing.push(unit);
  return missing;
}
