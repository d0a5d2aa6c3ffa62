import { createNamedRegistry } from '../schema/named-registry';
import { BUILTIN_DEFENSES } from './builtin';
import { importConfigModules, moduleBeingImported } from './config-modules';
import type { DefenseDefinition, DefenseLookup } from './definition';

const defenses = createNamedRegistry<DefenseDefinition<never>>({ what: 'defenses[].name', registeredBy: 'registerDefense', builtins: () => BUILTIN_DEFENSES });

/**
 * Adds (or replaces) a defense. Give it a `module` (usually `import.meta.url`), or list its module
 * in the config's `modules`, so worker threads and queue workers can load it too.
 */
export function registerDefense<O>(definition: DefenseDefinition<O>): void {
  defenses.register(definition as DefenseDefinition<never>, definition.module ?? moduleBeingImported());
}

/** The defense registered under `name`, or `undefined`. */
export function findDefense(name: string): DefenseDefinition<unknown> | undefined {
  return defenses.find(name) as DefenseDefinition<unknown> | undefined;
}

/** The defense registered under `name`. @throws InvalidArgumentError listing the known names. */
export function getDefense(name: string): DefenseDefinition<unknown> {
  return defenses.get(name) as DefenseDefinition<unknown>;
}

/** Names of every registered defense. */
export function defenseNames(): string[] {
  return defenses.names();
}

/** The registry as the run hands it to defenses (`DefenseRunFacts.defenses`, the second argument of `modelOptions`). */
export const registeredDefenses: DefenseLookup = { find: findDefense, names: defenseNames };

/**
 * Where a worker loads defense `name` from: `'builtin'`, a module specifier, or `undefined` when
 * the defense was registered in this process without a module (it cannot run in workers).
 */
export function defenseSource(name: string): 'builtin' | string | undefined {
  return defenses.source(name);
}

/**
 * Imports the modules that register user defenses (and attacks): the config's `modules`, once each;
 * what they register is loadable by workers from the same module.
 * @throws InvalidArgumentError naming the module when it cannot be imported.
 */
export const importDefenseModules: (modules: readonly string[]) => Promise<void> = importConfigModules;

export { resolveModuleSpecifier } from './config-modules';
