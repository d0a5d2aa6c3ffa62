import { InvalidArgumentError } from '@mia/core';
import { describe, expect, it } from 'vitest';
import { createNamedRegistry } from './named-registry';

interface Thing {
  readonly name: string;
  readonly size: number;
}

const builtins: readonly Thing[] = [
  { name: 'small', size: 1 },
  { name: 'large', size: 9 },
];

describe('createNamedRegistry', () => {
  it('lists the built-ins first, then registered values in the order they were first registered', () => {
    const registry = createNamedRegistry<Thing>({ what: 'things[].name', registeredBy: 'registerThing', builtins: () => builtins });
    registry.register({ name: 'user', size: 4 }, 'file:///user.js');
    expect(registry.names()).toEqual(['small', 'large', 'user']);
    expect(registry.find('user')).toEqual({ name: 'user', size: 4 });
    expect(registry.get('large')).toBe(builtins[1]);
    expect(registry.find('medium')).toBeUndefined();
  });

  it('replaces a value (a built-in too) in place, which then loads from its module', () => {
    const registry = createNamedRegistry<Thing>({ what: 'things[].name', registeredBy: 'registerThing', builtins: () => builtins });
    expect(registry.source('small')).toBe('builtin');
    registry.register({ name: 'small', size: 2 }, 'file:///override.js');
    registry.register({ name: 'local', size: 3 }, undefined);
    expect(registry.names()).toEqual(['small', 'large', 'local']);
    expect(registry.get('small').size).toBe(2);
    // Where a worker loads each from: the replaced built-in from its module, one without a module from nowhere.
    expect(['small', 'large', 'local', 'unknown'].map((n) => registry.source(n))).toEqual(['file:///override.js', 'builtin', undefined, undefined]);
  });

  it("refuses an unknown name, listing the known ones, under its own or the caller's path", () => {
    const registry = createNamedRegistry<Thing>({ what: 'things[].name', registeredBy: 'registerThing', builtins: () => builtins });
    expect(() => registry.get('medium')).toThrow(InvalidArgumentError);
    expect(() => registry.get('medium')).toThrow('things[].name must be one of small, large, got "medium"');
    expect(() => registry.get('medium', 'things[3].name')).toThrow('things[3].name must be one of small, large, got "medium"');
  });

  it('reads the built-ins at the first use, not when it is created', () => {
    let list: readonly Thing[] | undefined;
    const registry = createNamedRegistry<Thing>({ what: 'things[].name', registeredBy: 'registerThing', builtins: () => list! });
    list = builtins;
    expect(registry.names()).toEqual(['small', 'large']);
  });

  it('refuses what validate refuses, named by the registering function, and registers nothing', () => {
    const registry = createNamedRegistry<Thing>({
      what: 'things[].name',
      registeredBy: 'registerThing',
      validate: (t) => (t.size > 0 ? undefined : `size must be positive, got ${t.size}`),
    });
    expect(() => registry.register({ name: 'empty', size: 0 }, undefined)).toThrow('registerThing: size must be positive, got 0');
    expect(registry.names()).toEqual([]);
  });

  it("with duplicates: 'refuse', takes the same value again but refuses another under a registered name", () => {
    const registry = createNamedRegistry<Thing>({ what: 'things[].name', registeredBy: 'registerThing', duplicates: 'refuse' });
    const thing = { name: 'thing', size: 1 };
    registry.register(thing, undefined);
    registry.register(thing, undefined);
    expect(() => registry.register({ ...thing }, undefined)).toThrow('registerThing: "thing" is already registered');
    expect(registry.get('thing')).toBe(thing);
    expect(registry.names()).toEqual(['thing']);
  });
});
