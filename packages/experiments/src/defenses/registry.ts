import { pathToFileURL } from 'node:url';
import { isAbsolute, resolve } from 'node:path';
import { InvalidArgumentError } from '@mia/core';
import { BUILTIN_DEFENSES } from './builtin';
import type { DefenseDefinition, DefenseLookup } from './definition';

interface Entry {
  readonly definition: DefenseDefinition<never>;
  /** The module workers import to get this defense; `undefined` for a defense registered in this process only. */
  readonly module: string | undefined;
  readonly builtin: boolean;
}

let table: Map<string, Entry> | undefined;
const entries = () =>
  (table ??= new Map(BUILTIN_DEFENSES.map((d) => [d.name, { definition: d as DefenseDefinition<never>, module: undefined, builtin: true }])));
/** The module being imported by {@link importDefenseModules}: defenses it registers are loadable from it. */
let loading: string | undefined;
const imported = new Set<string>();

/**
 * Adds (or replaces) a defense. Give it a `module` (usually `import.meta.url`), or list its module
 * in the config's `modules`, so worker threads and queue workers can load it too.
 */
export function registerDefense<O>(definition: DefenseDefinition<O>): void {
  entries().set(definition.name, { definition: definition as DefenseDefinition<never>, module: definition.module ?? loading, builtin: false });
}

/** The defense registered under `name`, or `undefined`. */
export function findDefense(name: string): DefenseDefinition<unknown> | undefined {
  return entries().get(name)?.definition as DefenseDefinition<unknown> | undefined;
}

/** The defense registered under `name`. @throws InvalidArgumentError listing the known names. */
export function getDefense(name: string): DefenseDefinition<unknown> {
  const definition = findDefense(name);
  if (definition === undefined) throw new InvalidArgumentError(`defenses[].name must be one of ${defenseNames().join(', ')}, got ${JSON.stringify(name)}`);
  return definition;
}

/** Names of every registered defense. */
export function defenseNames(): string[] {
  return [...entries().keys()];
}

/** The registry as the run hands it to defenses (`DefenseRunFacts.defenses`, the second argument of `modelOptions`). */
export const registeredDefenses: DefenseLookup = { find: findDefense, names: defenseNames };

/**
 * Where a worker loads defense `name` from: `'builtin'`, a module specifier, or `undefined` when
 * the defense was registered in this process without a module (it cannot run in workers).
 */
export function defenseSource(name: string): 'builtin' | string | undefined {
  const entry = entries().get(name);
  return entry === undefined ? undefined : entry.builtin ? 'builtin' : entry.module;
}

/**
 * A module specifier as workers import it: relative paths (`./x.js`) resolved against `baseDir`,
 * paths as `file:` URLs; package names and URLs unchanged.
 */
export function resolveModuleSpecifier(specifier: string, baseDir = process.cwd()): string {
  if (specifier.startsWith('./') || specifier.startsWith('../')) return pathToFileURL(resolve(baseDir, specifier)).href;
  return isAbsolute(specifier) ? pathToFileURL(specifier).href : specifier;
}

/**
 * Imports the modules that register user defenses (the config's `modules`), once each; what they
 * register is loadable by workers from the same module.
 * @throws InvalidArgumentError naming the module when it cannot be imported.
 */
export async function importDefenseModules(modules: readonly string[]): Promise<void> {
  for (const specifier of modules) {
    if (imported.has(specifier)) continue;
    loading = specifier;
    try {
      await import(resolveModuleSpecifier(specifier));
    } catch (cause) {
      throw new InvalidArgumentError(`modules: cannot import ${JSON.stringify(specifier)}: ${(cause as Error).message}`, { cause });
    } finally {
      loading = undefined;
    }
    imported.add(specifier);
  }
}
