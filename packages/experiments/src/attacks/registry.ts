import type { ShadowAttack } from '@mia/attacks';
import { attackConfigOf, type AttackEntry, type ExperimentConfig } from '../schema/run-schema';
import { createNamedRegistry } from '../schema/named-registry';
import { moduleBeingImported } from '../defenses/config-modules';
import { BUILTIN_ATTACKS } from './builtin';
import type { AttackDefinition, AttackRecords, AttackReferences } from './definition';
import type { AttackLookup } from './validate-attacks';
import { forwardingAttack } from './forwarding-attack';
import { withoutShadow } from './no-shadow';

/** Refuses a definition whose needs are malformed, so that a config never gets as far as training for it. */
function unsupportedNeeds(definition: AttackDefinition<never>): string | undefined {
  const needs = definition.needs as AttackDefinition['needs'] | undefined;
  if (needs === undefined || typeof needs.shadow !== 'boolean')
    return `needs.shadow must be true (the attack calibrates on the shadow models) or false (it does not; the run then trains none for it), got ${JSON.stringify(needs?.shadow)}`;
  if (needs.queries !== undefined && needs.queries !== 'rotation' && needs.queries !== 'translation')
    return `needs.queries must be "rotation" or "translation", got ${JSON.stringify(needs.queries)}`;
  if (needs.queries !== undefined && !needs.shadow)
    return "needs.queries needs needs.shadow: true (the attack fits on the shadow models' signals on the queries)";
  const min = needs.references?.min;
  if (needs.references !== undefined && !(Number.isInteger(min) && min! >= 1))
    return `needs.references.min must be a positive integer, got ${JSON.stringify(min)}`;
  if (needs.population === true && needs.references === undefined)
    return 'needs.population needs needs.references too (the population is scored against the reference models)';
  for (const key of ['records', 'labelQueries'] as const)
    if (needs[key] !== undefined && typeof needs[key] !== 'boolean') return `needs.${key} must be true or false, got ${JSON.stringify(needs[key])}`;
  return undefined;
}

const attacks = createNamedRegistry<AttackDefinition<never>>({
  what: 'attacks[].name',
  registeredBy: 'registerAttack',
  builtins: () => BUILTIN_ATTACKS,
  validate(definition) {
    if (typeof definition.name !== 'string' || definition.name === '') return `name must be a non-empty string, got ${JSON.stringify(definition.name)}`;
    const problem = unsupportedNeeds(definition);
    return problem === undefined ? undefined : `attack ${JSON.stringify(definition.name)}: ${problem}`;
  },
});

/**
 * Adds (or replaces) an attack; a config may then list it in `attacks` by name, with `params` checked
 * against its schema. Give it a `module` (usually `import.meta.url`), or list its module in the
 * config's `modules`, so every process of a run can load it.
 * @throws InvalidArgumentError when the name is empty or the attack's `needs` are malformed.
 */
export function registerAttack<O>(definition: AttackDefinition<O>): void {
  const d = definition as unknown as AttackDefinition<never>;
  attacks.register(d, d.module ?? moduleBeingImported());
}

/** The attack registered under `name`, or `undefined`. */
export function findAttack(name: string): AttackDefinition<unknown> | undefined {
  return attacks.find(name) as AttackDefinition<unknown> | undefined;
}

/** The attack registered under `name`. @throws InvalidArgumentError listing the known names. */
export function getAttack(name: string): AttackDefinition<unknown> {
  return attacks.get(name) as AttackDefinition<unknown>;
}

/** Names of every registered attack, the built-ins first. */
export function attackNames(): string[] {
  return attacks.names();
}

/** Where a worker loads attack `name` from: `'builtin'`, a module specifier, or `undefined` (registered here without a module, or unknown). */
export function attackSource(name: string): 'builtin' | string | undefined {
  return attacks.source(name);
}

/** The registry as the config check sees it. */
export const registeredAttacks: AttackLookup = { find: findAttack, names: attackNames };

/** Names of the built-in attacks (docs/protocol.md §3.1–3.3); {@link attackNames} lists user attacks too. */
export const ATTACK_NAMES: readonly string[] = BUILTIN_ATTACKS.map((d) => d.name);

/**
 * Whether attack `name` calibrates on the shadow models (its `needs.shadow`); an unknown name counts
 * as needing them. The runner trains shadow models only for a config with such an attack.
 */
export function attackNeedsShadow(name: string): boolean {
  return findAttack(name)?.needs.shadow !== false;
}

/** Whether attack `name` fits a model of its own (the NN and augmentation attacks); the runner caches what those produce. */
export function isTrainedAttack(name: string): boolean {
  return findAttack(name)?.trained === true;
}

/**
 * Builds the attacks of a config's `attacks` entries for one defense, each from its definition with
 * its params validated and defaulted, named by the entry's label.
 * @param options - `seed` of the attacks' randomness; `scale` of the run (the built-in NN attacks train
 *   5 epochs at `smoke`) @default 'cpu'; `nnEpochs`: epochs of every attack with an `epochs` param that
 *   its entry does not set; `references`: the run's reference models (for `lira`, `rmia`); `records`: the
 *   audited records (for `qmia`, `boundary-distance`).
 * @throws InvalidArgumentError naming the entry when its attack is unknown or its params are invalid.
 */
export function createAttacks(
  entries: readonly AttackEntry[],
  options: {
    readonly seed: number;
    readonly scale?: ExperimentConfig['scale'];
    readonly nnEpochs?: number;
    readonly references?: AttackReferences;
    readonly records?: AttackRecords;
  },
): ShadowAttack[] {
  return entries.map((entry, i) => {
    const { name, label, params } = attackConfigOf(entry);
    const definition = attacks.get(name, `attacks[${i}].name`) as AttackDefinition<unknown>;
    const epochs = options.nnEpochs !== undefined && 'epochs' in definition.schema.fields && params.epochs === undefined ? { epochs: options.nnEpochs } : {};
    const parsed = definition.schema.parse({ ...params, ...epochs }, `attacks[${i}] (${name})`);
    const attack = definition.create(parsed, {
      label,
      seed: options.seed,
      scale: options.scale ?? 'cpu',
      ...(options.references === undefined ? {} : { references: options.references }),
      ...(options.records === undefined ? {} : { records: options.records }),
    });
    const named = attack.name === label ? attack : forwardingAttack(attack, { name: label });
    return definition.needs.shadow ? named : withoutShadow(named, label, name);
  });
}
