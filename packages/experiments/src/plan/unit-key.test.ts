import { deriveSeed } from '@mia/core';
import { describe, expect, it } from 'vitest';
import { contentHash } from '../store/canonical-hash';
import { trainingSeedOf } from '../schema/run-schema';
import { parseExperimentConfig } from '../config/parse-config';
import type { PreparedData } from '../data/prepare-data';
import { unitKey, unitSeedOf } from './unit-key';
import { packageVersions } from '../store/versions';

const config = parseExperimentConfig({
  name: 'key-test',
  seed: 3,
  dataset: { name: 'purchaseLike', size: 400 },
  partition: { preset: 'CCL4' },
  model: { name: 'mlp', options: { hidden: [8] } },
  training: { epochs: 1, batchSize: 8, lr: 0.1 },
  defenses: [{ name: 'none' }],
});
const data = { dataset: { name: 'purchaseLike', source: 'stand-in', size: 400 }, digest: 'partition-digest' } as unknown as PreparedData;
const defense = config.defenses[0]!;

describe('unitKey and the training seed', () => {
  it('without trainingSeed, is the key every cache entry was written under (the role seed from `seed`)', () => {
    expect(config).not.toHaveProperty('trainingSeed');
    expect(trainingSeedOf(config)).toBe(3);
    for (const role of ['target', 'shadow', 'shadow-2'] as const) {
      // The content of the key before training seeds existed, field by field.
      const before = contentHash({
        kind: 'trained-model-1',
        role,
        seed: deriveSeed(3, role),
        dataset: { name: 'purchaseLike', source: 'stand-in', size: 400 },
        partition: 'partition-digest',
        model: config.model,
        training: config.training,
        defense: { name: 'none', params: {} },
        versions: packageVersions(),
      });
      expect(unitKey(config, data, defense, role)).toBe(before);
      // trainingSeed equal to seed is the same training: the same key.
      expect(unitKey({ ...config, trainingSeed: 3 }, data, defense, role)).toBe(before);
    }
  });

  it('changes with the training seed, and only through it: a different seed with the same training seed keeps the key', () => {
    const base = unitKey(config, data, defense, 'target');
    expect(unitKey({ ...config, trainingSeed: 4 }, data, defense, 'target')).not.toBe(base);
    // The partition's own seed reaches the key through the partition digest, not the role seed.
    expect(unitKey({ ...config, seed: 9, trainingSeed: 3 }, data, defense, 'target')).toBe(base);
  });

  it("shadowSeed 'partition': the shadows of every training seed are one unit (the run's seed), the targets still vary; references keep the training seed", () => {
    const shared = { ...config, shadowSeed: 'partition' as const };
    for (const role of ['shadow', 'shadow-2'] as const) {
      const key = unitKey(shared, data, defense, role);
      expect(unitKey({ ...shared, trainingSeed: 4 }, data, defense, role)).toBe(key);
      expect(unitKey({ ...shared, trainingSeed: 5 }, data, defense, role)).toBe(key);
      // The same unit as the training seed = seed run's shadow (seed 3): the first seed's cache entry.
      expect(key).toBe(unitKey(config, data, defense, role));
      expect(unitSeedOf({ ...shared, trainingSeed: 4 }, role)).toBe(3);
      // Without the option every training seed trains its own shadows.
      expect(unitKey({ ...config, trainingSeed: 4 }, data, defense, role)).not.toBe(key);
    }
    expect(unitKey({ ...shared, trainingSeed: 4 }, data, defense, 'target')).not.toBe(unitKey(shared, data, defense, 'target'));
    expect(unitSeedOf({ ...shared, trainingSeed: 4 }, 'target')).toBe(4);
    expect(unitSeedOf({ ...shared, trainingSeed: 4 }, 'reference-0')).toBe(4);
    expect(unitSeedOf({ ...config, shadowSeed: 'training', trainingSeed: 4 }, 'shadow')).toBe(4);
    expect(() => parseExperimentConfig({ ...config, shadowSeed: 'shared' })).toThrow(/shadowSeed/);
  });

  it('rejects a bad training seed naming the field and the value', () => {
    expect(() => parseExperimentConfig({ ...config, trainingSeed: -1 })).toThrow(/trainingSeed: expected a number ≥ 0, got -1/);
    expect(() => parseExperimentConfig({ ...config, trainingSeed: 1.5 })).toThrow(/trainingSeed: expected an integer, got 1\.5/);
  });
});
