import * as tf from '@tensorflow/tfjs-core';
import { DirectoryArtifactStore, initDefaultBackend } from '@mia/experiments';
import { runReproduction, type Reproduction } from '@mia/experiments/reproduce';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupConfig } from './configs';
import { measureGroup, type GroupMeasurement } from './measure-group';

const dir = mkdtempSync(join(tmpdir(), 'crl-measure-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(async () => {
  await initDefaultBackend({ prefer: ['native', 'wasm'], threads: 1 });
});

/** A reproduction that only measures one CE group with `seeds` training seeds and hands the measurement back. */
function measuring(seeds: number, out: { m?: GroupMeasurement }): Reproduction {
  const base = groupConfig('cifar10', 'ResNet18', 'smoke');
  const config = { ...base, defenses: base.defenses.filter((d) => d.label === 'CE'), shadowModels: 1 };
  return {
    name: `measure-${seeds}`,
    paper: 'test',
    title: 'test',
    source: 'test',
    async run(ctx) {
      out.m = await measureGroup(ctx, 'g', config, { labels: ['CE'], seeds });
      return { tables: [], claims: [], notes: [] };
    },
  };
}

describe('measureGroup over training seeds', () => {
  it('measures every column, Grad-x included, on each seed’s own model, keeps each seed’s number and averages them', async () => {
    const store = new DirectoryArtifactStore(join(dir, 'cache'));
    const before = tf.memory().numTensors;
    const one: { m?: GroupMeasurement } = {};
    const two: { m?: GroupMeasurement } = {};
    await runReproduction(measuring(1, one), { scale: 'smoke', out: join(dir, 'one'), store });
    await runReproduction(measuring(2, two), { scale: 'smoke', out: join(dir, 'two'), store });
    expect(tf.memory().numTensors).toBe(before);
    if (one.m === undefined || 'notRun' in one.m || two.m === undefined || 'notRun' in two.m) throw new Error('the group did not run');
    expect(one.m.seeds).toEqual([0]);
    expect(two.m.seeds).toEqual([0, 1]);
    const single = one.m.rows['CE']!;
    const pair = two.m.rows['CE']!;
    for (const column of ['Train Acc.', 'Test Acc.', 'NN-Based AUC', 'Entropy AUC', 'M-Entropy AUC', 'Grad-x ℓ2 AUC'] as const) {
      const perSeed = pair.perSeed[column]!;
      expect(perSeed, column).toHaveLength(2);
      // Seed 0 of the two-seed run is the one-seed run's model (same cache unit, same evaluation).
      expect(perSeed[0], column).toBeCloseTo(single.values[column]!, 12);
      expect(pair.values[column], column).toBeCloseTo((perSeed[0]! + perSeed[1]!) / 2, 12);
    }
    // The second seed trains another model: its Grad-x AUC (computed on that model, not seed 0's) differs.
    const gradX = pair.perSeed['Grad-x ℓ2 AUC']!;
    expect(gradX[1]).not.toBe(gradX[0]);
  }, 600_000);
});
