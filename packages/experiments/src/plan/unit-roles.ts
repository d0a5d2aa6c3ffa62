import { deriveSeed, seededRandom } from '@mia/core';
import { attackConfigOf, type ExperimentConfig } from '../schema/run-schema';
import { dataRole, isReferenceRole, type UnitRole } from '../schema/unit-role';

export { dataRole, type UnitRole } from '../schema/unit-role';

/**
 * Whether the attack registered under a name calibrates on the shadow models (its definition's
 * `needs.shadow`). `train/` cannot see the attack registry: the caller passes its lookup
 * (`attackNeedsShadow` of `attacks/registry.ts`).
 */
export type NeedsShadow = (attack: string) => boolean;

/**
 * The shadow models a run trains per defense: none when no attack of the run calibrates on them
 * (no attacks, or only attacks such as `lira` and `rmia` whose `needs.shadow` is false), else
 * `config.shadowModels` of them — `'shadow'` (the one every such run has, so single-shadow cache
 * keys are unchanged), then `'shadow-2'`, `'shadow-3'`, … whose signals are pooled with the first one's.
 * @param needsShadow - whether an attack (by name) needs the shadow models.
 */
export function shadowRoles(config: Pick<ExperimentConfig, 'attacks' | 'shadowModels'>, needsShadow: NeedsShadow): UnitRole[] {
  if (!config.attacks.some((entry) => needsShadow(attackConfigOf(entry).name))) return [];
  const n = config.shadowModels ?? 1;
  return ['shadow', ...Array.from({ length: n - 1 }, (_, j): UnitRole => `shadow-${j + 2}`)];
}

/** The target, then the shadows of {@link shadowRoles}. */
export const unitRoles = (config: Pick<ExperimentConfig, 'attacks' | 'shadowModels'>, needsShadow: NeedsShadow): UnitRole[] => [
  'target',
  ...shadowRoles(config, needsShadow),
];

/**
 * A unit's members and non-members. The target and the first shadow use their partition roles
 * (`<role>_train` / `<role>_test`); shadow `k` ≥ 2 draws `|shadow_train|` members from
 * `shadow_train ∪ shadow_test` with a seeded permutation (seed, role) and keeps the rest as its
 * non-members, so each pooled shadow sees a different member set from the same shadow data.
 * @throws Error when the partition lacks the role's index sets.
 */
export function roleIndices(
  seed: number,
  roles: Readonly<Record<string, readonly number[]>>,
  role: UnitRole,
): { readonly memberIdx: readonly number[]; readonly nonMemberIdx: readonly number[] } {
  if (isReferenceRole(role)) throw new Error(`roleIndices: ${role} is a reference model; its examples come from referenceIndices`);
  const base = dataRole(role);
  const train = roles[`${base}_train`];
  const test = roles[`${base}_test`];
  if (train === undefined || test === undefined) throw new Error(`roleIndices: the partition has no ${base}_train/${base}_test roles for the ${role} model`);
  if (role === 'target' || role === 'shadow') return { memberIdx: train, nonMemberIdx: test };
  const pool = [...train, ...test];
  const order = seededRandom(deriveSeed(seed, role, 'members')).permutation(pool.length);
  const picked = Array.from(order, (i) => pool[i]!);
  return { memberIdx: picked.slice(0, train.length), nonMemberIdx: picked.slice(train.length) };
}
