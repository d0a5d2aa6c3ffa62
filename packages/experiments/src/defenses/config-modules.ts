import { pathToFileURL } from 'node:url';
import { isAbsolute, resolve } from 'node:path';
import { InvalidArgumentError } from '@mia/core';

/** The module {@link importConfigModules} is importing: what it registers is loadable from it. */
let loading: string | undefined;
const imported = new Set<string>();

/**
 * The config module being imported right now, if any: a defense or attack registered while it loads
 * without a `module` of its own is loadable by workers from this one.
 */
export const moduleBeingImported = (): string | undefined => loading;

/**
 * A module specifier as workers import it: relative paths (`./x.js`) resolved against `baseDir`,
 * paths as `file:` URLs; package names and URLs unchanged.
 */
export function resolveModuleSpecifier(specifier: string, baseDir = process.cwd()): string {
  if (specifier.startsWith('./') || specifier.startsWith('../')) return pathToFileURL(resolve(baseDir, specifier)).href;
  return isAbsolute(specifier) ? pathToFileURL(specifier).href : specifier;
}

/**
 * Imports the modules that register user defenses and attacks (the config's `modules`), once each;
 * what they register is loadable by workers from the same module.
 * @throws InvalidArgumentError naming the module when it cannot be imported.
 */
export async function importConfigModules(modules: readonly string[]): Promise<void> {
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
