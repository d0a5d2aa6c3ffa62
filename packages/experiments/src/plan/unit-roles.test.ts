import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CCL5 } from '@mia/data';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DirectoryArtifactStore } from '../store/artifact-store';
import { parseExperimentConfig } from '../config/parse-config';
import { runExperiment } from '../run/runner';
import { attackNeedsShadow } from '../attacks/registry';
import { roleIndices, shadowRoles, unitRoles } from './unit-roles';

const dir = mkdtempSync(join(tmpdir(), 'mia-roles-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('unit roles (config.shadowModels, docs/protocol.md §3.2)', () => {
  it('one shadow by default, none without attacks, k pooled shadows named shadow, shadow-2, …', () => {
    expect(unitRoles({ attacks: ['loss'], shadowModels: 1 }, attackNeedsShadow)).toEqual(['target', 'shadow']);
    expect(unitRoles({ attacks: [], shadowModels: 5 }, attackNeedsShadow)).toEqual(['target']);
    expect(shadowRoles({ attacks: ['nn-crl'], shadowModels: 3 }, attackNeedsShadow)).toEqual(['shadow', 'shadow-2', 'shadow-3']);
  });

  it('none when no attack of the run calibrates on shadow models (lira, rmia); all of them when one does', () => {
    const lira = { name: 'lira', label: 'lira-4', params: { models: 4 } };
    expect(unitRoles({ attacks: ['lira', lira, 'rmia'], shadowModels: 3 }, attackNeedsShadow)).toEqual(['target']);
    expect(shadowRoles({ attacks: ['lira', 'loss'], shadowModels: 2 }, attackNeedsShadow)).toEqual(['shadow', 'shadow-2']);
    // The lookup decides, by the attack's name (not its label).
    expect(shadowRoles({ attacks: [{ name: 'loss', label: 'lira', params: {} }], shadowModels: 1 }, (name) => name !== 'loss')).toEqual([]);
    expect(shadowRoles({ attacks: [{ name: 'loss', label: 'lira', params: {} }], shadowModels: 1 }, attackNeedsShadow)).toEqual(['shadow']);
  });

  it('shadow k ≥ 2 trains on a seeded half of the shadow data: |shadow_train| members, the rest non-members, reproducible', () => {
    const { roles } = CCL5.split(1000, 0);
    const first = roleIndices(3, roles, 'shadow');
    expect(first).toEqual({ memberIdx: roles.shadow_train, nonMemberIdx: roles.shadow_test });
    const pool = new Set([...roles.shadow_train!, ...roles.shadow_test!]);
    const second = roleIndices(3, roles, 'shadow-2');
    expect(second.memberIdx).toHaveLength(roles.shadow_train!.length);
    expect(second.nonMemberIdx).toHaveLength(roles.shadow_test!.length);
    expect(new Set([...second.memberIdx, ...second.nonMemberIdx])).toEqual(pool);
    expect(second.memberIdx).not.toEqual(roles.shadow_train);
    expect(roleIndices(3, roles, 'shadow-2')).toEqual(second);
    expect(roleIndices(3, roles, 'shadow-3').memberIdx).not.toEqual(second.memberIdx);
    expect(roleIndices(4, roles, 'shadow-2').memberIdx).not.toEqual(second.memberIdx);
    // Never the target's data.
    for (const i of second.memberIdx) expect(roles.target_train!.includes(i) || roles.target_test!.includes(i)).toBe(false);
  });

  it('names the missing roles', () => {
    expect(() => roleIndices(0, { target_train: [1], target_test: [2] }, 'shadow-2')).toThrow(
      'roleIndices: the partition has no shadow_train/shadow_test roles for the shadow-2 model',
    );
  });

  it('a run with 3 shadow models trains and caches each, pools their signals, and reruns from the cache', async () => {
    const config = parseExperimentConfig({
      name: 'pooled',
      scale: 'smoke',
      seed: 5,
      dataset: { name: 'purchaseLike', size: 1500 },
      partition: { preset: 'CCL5', maxPerRole: 120 },
      model: { name: 'mlp', options: { hidden: [32] } },
      training: { epochs: 3, batchSize: 40, lr: 0.1 },
      defenses: [{ name: 'none', label: 'w/o' }],
      attacks: ['loss', 'nn-crl'],
      shadowModels: 3,
    });
    const store = new DirectoryArtifactStore(join(dir, 'cache'));
    const lines: string[] = [];
    const before = tf.memory().numTensors;
    const first = await runExperiment(config, { store, onLog: (l) => lines.push(l) });
    expect(tf.memory().numTensors).toBe(before);
    expect(lines.filter((l) => l.startsWith('training   '))).toEqual([
      ...['target', 'shadow', 'shadow-2', 'shadow-3'].map((r) => `training   w/o/${r} (120 members)`),
      'training   w/o: nn-crl attack model on 720 shadow signals', // fitted on the 3 pooled shadows' 3 × 240 signals
    ]);
    expect(first.rows[0]!.cache).toEqual({ target: 'miss', shadow: 'miss' });
    const single = await runExperiment({ ...config, shadowModels: 1 }, { store });
    // The first shadow is the single-shadow run's (cache hit); pooling changes what the attacks learn from.
    expect(single.rows[0]!.cache).toEqual({ target: 'hit', shadow: 'hit' });
    expect(single.rows[0]!.trainSeconds).toBeLessThan(first.rows[0]!.trainSeconds);
    const againLines: string[] = [];
    const again = await runExperiment(config, { store, onLog: (l) => againLines.push(l) });
    expect(again.rows[0]!.cache).toEqual({ target: 'hit', shadow: 'hit' });
    expect(again.rows[0]!.attacks).toEqual(first.rows[0]!.attacks);
    expect(againLines.filter((l) => l.startsWith('training '))).toEqual([]); // the attack model's outputs came from the cache too
    expect(againLines).toContainEqual(expect.stringMatching(/^cache hit {2}w\/o: nn-crl attack \([0-9a-f]{12}\)$/));
  });
});
