import { describe, expect, it } from 'vitest';
import { BUILTIN_DEFENSES } from './builtin';
import { defenseNames, defenseSource, findDefense, getDefense, registerDefense } from './registry';

describe('the built-in defenses', () => {
  it('keep their order, which `mia schema` and defenseNames() show', () => {
    // The order of BUILTIN_DEFENSES before each defense moved to a file of its own.
    const names = [
      'none',
      'ccl',
      'crl',
      'past',
      'relaxloss',
      'label-smoothing',
      'confidence-penalty',
      'l1',
      'advreg',
      'mixup-mmd',
      'sam',
      'sharpreg',
      'dropout',
      'l2',
      'early-stop',
      'dp-sgd',
      'memguard',
      'selena',
    ];
    expect(BUILTIN_DEFENSES.map((d) => d.name)).toEqual(names);
    expect(defenseNames().slice(0, names.length)).toEqual(names);
  });

  it('load from "builtin" until a registration replaces one; an unknown name lists the known ones', () => {
    expect(defenseSource('ccl')).toBe('builtin');
    const none = getDefense('none');
    registerDefense({ ...none, name: 'test-copy-of-none', module: 'file:///copy.js' });
    expect([defenseSource('test-copy-of-none'), findDefense('test-copy-of-none')?.description]).toEqual(['file:///copy.js', 'undefended (cross-entropy)']);
    expect(() => getDefense('magic')).toThrow(
      `defenses[].name must be one of ${[...BUILTIN_DEFENSES.map((d) => d.name), 'test-copy-of-none'].join(', ')}, got "magic"`,
    );
  });
});
