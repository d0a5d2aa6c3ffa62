import { describe, expect, it } from 'vitest';
import { referenceIndices, referenceKeep, referenceRoles } from './reference-membership';

const inCounts = (keep: Uint8Array[]) => Array.from(keep[0]!, (_, i) => keep.reduce((n, row) => n + row[i]!, 0));

describe('referenceKeep', () => {
  it('carlini: every example is IN exactly half the models (their train.py argsort design), each model about half the pool', () => {
    const keep = referenceKeep(1000, 16, 'carlini', 7);
    expect(keep).toHaveLength(16);
    expect(new Set(inCounts(keep))).toEqual(new Set([8]));
    for (const row of keep) {
      const size = row.reduce((a, b) => a + b, 0);
      // Binomial-like spread around 500 (sd ≈ 16): far from both ends, and not all equal.
      expect(size).toBeGreaterThan(420);
      expect(size).toBeLessThan(580);
    }
    expect(new Set(keep.map((row) => row.reduce((a, b) => a + b, 0))).size).toBeGreaterThan(1);
  });

  it('paired: models 2j and 2j + 1 keep complementary halves, so any prefix of whole pairs is balanced', () => {
    const keep = referenceKeep(101, 8, 'paired', 3);
    for (let j = 0; j < 4; j++) {
      expect(keep[2 * j]!.reduce((a, b) => a + b, 0)).toBe(50);
      keep[2 * j]!.forEach((v, i) => expect(v + keep[2 * j + 1]![i]!).toBe(1));
    }
    expect(new Set(inCounts(keep.slice(0, 4)))).toEqual(new Set([2]));
    // The first pairs do not depend on the count: a larger run's first models are the smaller run's.
    expect(referenceKeep(101, 4, 'paired', 3)).toEqual(keep.slice(0, 4));
  });

  it('is deterministic in the seed, and the seed, count and scheme each change the masks', () => {
    expect(referenceKeep(200, 4, 'carlini', 1)).toEqual(referenceKeep(200, 4, 'carlini', 1));
    expect(referenceKeep(200, 4, 'carlini', 2)).not.toEqual(referenceKeep(200, 4, 'carlini', 1));
    expect(referenceKeep(200, 6, 'carlini', 1).slice(0, 4)).not.toEqual(referenceKeep(200, 4, 'carlini', 1));
    expect(referenceKeep(200, 4, 'paired', 1)).not.toEqual(referenceKeep(200, 4, 'carlini', 1));
  });

  it('refuses an odd or too small count and an empty pool, naming the argument', () => {
    expect(() => referenceKeep(10, 3, 'carlini', 0)).toThrow('referenceKeep: count must be an even integer ≥ 2, got 3');
    expect(() => referenceKeep(10, 0, 'paired', 0)).toThrow('referenceKeep: count must be an even integer ≥ 2, got 0');
    expect(() => referenceKeep(0, 2, 'paired', 0)).toThrow('referenceKeep: poolSize must be a positive integer, got 0');
    expect(() => referenceKeep(10, 2, 'other' as never, 0)).toThrow('referenceKeep: scheme must be "carlini" or "paired", got "other"');
  });
});

describe('referenceIndices', () => {
  const roles = { target_train: [0, 1, 2, 3], target_test: [4, 5, 6, 7], shadow_train: [8, 9], shadow_test: [10, 11] };
  it("trains on the kept examples of the target's members and non-members and is scored on the rest and on the population", () => {
    const config = { seed: 5, references: { count: 2, scheme: 'paired' as const } };
    const [a, b] = referenceRoles(config).map((role) => referenceIndices(config, roles, role));
    expect(referenceRoles(config)).toEqual(['reference-0', 'reference-1']);
    expect([...a!.memberIdx, ...b!.memberIdx].sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(a!.memberIdx).toHaveLength(4);
    expect(a!.nonMemberIdx).toEqual([...b!.memberIdx, 8, 9, 10, 11]);
    expect(() => referenceIndices(config, roles, 'reference-2')).toThrow(
      'referenceIndices: reference-2 is not a reference model of this config (references.count 2)',
    );
    expect(referenceRoles({ references: { import: '/x' } })).toEqual([]);
  });
});
