import { InvalidArgumentError } from '@mia/core';

/** Options of {@link createNamedRegistry}. */
export interface NamedRegistryOptions<T extends { readonly name: string }> {
  /** What {@link NamedRegistry.get} says must be one of the known names, e.g. `'defenses[].name'`. */
  readonly what: string;
  /** The function that registers (e.g. `'registerAttack'`), named first in every error of {@link NamedRegistry.register}. */
  readonly registeredBy: string;
  /**
   * The built-in values, in the order {@link NamedRegistry.names} lists them; read at the first use of
   * the registry, so a module cycle never sees them undefined. @default none
   */
  readonly builtins?: () => readonly T[];
  /** A problem that refuses a value before it is registered (its message after `registeredBy: `), or `undefined`. */
  readonly validate?: (value: T) => string | undefined;
  /**
   * `'replace'`: a value replaces the one registered under its name (a user may override a built-in).
   * `'refuse'`: a different value under a registered name throws; the same value again is a no-op.
   * @default 'replace'
   */
  readonly duplicates?: 'replace' | 'refuse';
}

/** A table of values by name: the built-ins and the values registered in this process. */
export interface NamedRegistry<T> {
  /** The value registered under `name`, or `undefined`. */
  find(name: string): T | undefined;
  /**
   * The value registered under `name`.
   * @param what - what the error says must be one of the known names @default the registry's `what`
   * @throws InvalidArgumentError listing the known names.
   */
  get(name: string, what?: string): T;
  /** Names of every registered value, the built-ins first, then in the order they were first registered. */
  names(): string[];
  /**
   * Adds `value` under its name, with the module that registers it (workers import it to get the value).
   * @throws InvalidArgumentError when `validate` refuses the value, or (`duplicates: 'refuse'`) another value has its name.
   */
  register(value: T, module: string | undefined): void;
  /** Where a worker loads `name` from: `'builtin'`, a module specifier, or `undefined` (registered without a module, or unknown). */
  source(name: string): 'builtin' | string | undefined;
}

interface Entry<T> {
  readonly value: T;
  readonly module: string | undefined;
  readonly builtin: boolean;
}

/**
 * A registry of named values (attacks, defenses, reproductions): lookup with an error that lists the
 * known names, the built-ins kept apart from registered values, and one rule for a name registered twice.
 */
export function createNamedRegistry<T extends { readonly name: string }>(options: NamedRegistryOptions<T>): NamedRegistry<T> {
  let table: Map<string, Entry<T>> | undefined;
  const entries = () => (table ??= new Map((options.builtins?.() ?? []).map((value) => [value.name, { value, module: undefined, builtin: true }])));
  const names = () => [...entries().keys()];
  return {
    find: (name) => entries().get(name)?.value,
    get(name, what = options.what) {
      const entry = entries().get(name);
      if (entry === undefined) throw new InvalidArgumentError(`${what} must be one of ${names().join(', ')}, got ${JSON.stringify(name)}`);
      return entry.value;
    },
    names,
    register(value, module) {
      const problem = options.validate?.(value);
      if (problem !== undefined) throw new InvalidArgumentError(`${options.registeredBy}: ${problem}`);
      const existing = entries().get(value.name);
      if (options.duplicates === 'refuse' && existing !== undefined && existing.value !== value)
        throw new InvalidArgumentError(`${options.registeredBy}: ${JSON.stringify(value.name)} is already registered`);
      entries().set(value.name, { value, module, builtin: false });
    },
    source(name) {
      const entry = entries().get(name);
      return entry === undefined ? undefined : entry.builtin ? 'builtin' : entry.module;
    },
  };
}
