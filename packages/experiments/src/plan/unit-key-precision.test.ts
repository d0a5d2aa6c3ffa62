import { deriveSeed } from '@mia/core';
import { nativeBackendInfo, nativeUnavailableReason } from '@mia/backend-native';
import { afterAll, describe, expect, it } from 'vitest';
import { parseExperimentConfig } from '../config/parse-config';
import type { PreparedData } from '../data/prepare-data';
import { contentHash } from '../store/canonical-hash';
import { packageVersions } from '../store/versions';
import { activePrecision, initDefaultBackend } from '../train/backend-choice';
import { unitKey } from './unit-key';

const config = parseExperimentConfig({
  name: 'precision-key-test',
  seed: 3,
  dataset: { name: 'purchaseLike', size: 400 },
  partition: { preset: 'CCL4' },
  model: { name: 'mlp', options: { hidden: [8] } },
  training: { epochs: 1, batchSize: 8, lr: 0.1 },
  defenses: [{ name: 'none' }],
});
const data = { dataset: { name: 'purchaseLike', source: 'stand-in', size: 400 }, digest: 'partition-digest' } as unknown as PreparedData;
const defense = config.defenses[0]!;

/** The key's content as every fp32 cache entry was written, field by field (plus `extra`). */
const keyOf = (extra: Record<string, unknown> = {}): string =>
  contentHash({
    kind: 'trained-model-1',
    role: 'target',
    seed: deriveSeed(3, 'target'),
    dataset: { name: 'purchaseLike', source: 'stand-in', size: 400 },
    partition: 'partition-digest',
    model: config.model,
    training: config.training,
    defense: { name: 'none', params: {} },
    versions: packageVersions(),
    ...extra,
  });

const native = nativeUnavailableReason();
const saved = process.env['MIA_PRECISION'];

describe.skipIf(native !== undefined)(`unitKey and the native backend's precision${native === undefined ? '' : ` [skipped: ${native}]`}`, () => {
  afterAll(async () => {
    if (saved === undefined) delete process.env['MIA_PRECISION'];
    else process.env['MIA_PRECISION'] = saved;
    await initDefaultBackend({ prefer: ['native'] });
  });

  it('fp32 on the native backend: the key every cache entry was written under, and fp32 in results', async () => {
    expect.hasAssertions();
    process.env['MIA_PRECISION'] = 'fp32';
    await initDefaultBackend({ prefer: ['native'] });
    expect(activePrecision()).toBe('fp32');
    expect(unitKey(config, data, defense, 'target')).toBe(keyOf());
  });

  it.skipIf(native !== undefined || !nativeBackendInfo().bf16)(
    'bf16 on the native backend: precision bf16 in the key, so fp32 and bf16 models never share an entry',
    async () => {
      expect.hasAssertions();
      process.env['MIA_PRECISION'] = 'bf16';
      await initDefaultBackend({ prefer: ['native'] });
      expect(activePrecision()).toBe('bf16');
      const key = unitKey(config, data, defense, 'target');
      expect(key).toBe(keyOf({ precision: 'bf16' }));
      expect(key).not.toBe(keyOf());
      process.env['MIA_PRECISION'] = 'fp32';
      await initDefaultBackend({ prefer: ['native'] });
      expect(unitKey(config, data, defense, 'target')).toBe(keyOf());
    },
  );

  it('another backend is fp32 whatever the native addon was set to', async () => {
    expect.hasAssertions();
    process.env['MIA_PRECISION'] = 'auto';
    await initDefaultBackend({ prefer: ['native'] });
    await initDefaultBackend({ prefer: ['cpu'] });
    expect(activePrecision()).toBe('fp32');
    expect(unitKey(config, data, defense, 'target')).toBe(keyOf());
  });
});
