import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CCL4, PAST6, RELAX5, SELENA } from '@mia/data';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DirectoryArtifactStore } from '../store/artifact-store';
import { parseExperimentConfig } from '../config/parse-config';
import { prepareData } from './prepare-data';
import { runExperiment } from '../run/runner';
import { top1Accuracy } from '../train/train-unit';
import { capAndValidation, VALIDATION_POOL } from './validation-slice';

const dir = mkdtempSync(join(tmpdir(), 'mia-validation-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(async () => {
  await tf.setBackend('cpu');
});

const allIndices = (roles: Readonly<Record<string, readonly number[]>>) => Object.values(roles).flat();

describe('capAndValidation (docs/protocol.md A11)', () => {
  it('cuts the slice from the end of the pool role, disjoint from every capped role', () => {
    const full = PAST6.split(600, 3);
    const p = capAndValidation(full, 40, 30);
    expect(p.roles.validation).toEqual(full.roles.target_inference!.slice(70));
    for (const role of Object.keys(full.roles)) expect(p.roles[role]).toEqual(full.roles[role]!.slice(0, 40));
    const all = allIndices(p.roles);
    expect(new Set(all).size).toBe(all.length);
  });

  it('without a cap the pool role shrinks by the slice (paper scale), still disjoint', () => {
    const full = CCL4.split(400, 1);
    const p = capAndValidation(full, undefined, 20);
    expect(p.roles.target_test).toEqual(full.roles.target_test!.slice(0, 80));
    expect(p.roles.validation).toHaveLength(20);
    expect(p.roles.target_train).toEqual(full.roles.target_train);
    const all = allIndices(p.roles);
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBe(400);
  });

  it('without validation only the cap applies (the roles, hence the cache keys, of older runs are unchanged)', () => {
    const full = RELAX5.split(500, 0);
    const p = capAndValidation(full, 30, undefined);
    expect(Object.keys(p.roles)).toEqual(Object.keys(full.roles));
    expect(p.roles.pseudo_test).toEqual(full.roles.pseudo_test!.slice(0, 30));
    expect(VALIDATION_POOL.RELAX5).toBe('pseudo_test');
  });

  it('rejects a preset without a pool and a slice as large as the pool, naming the argument', () => {
    expect(() => capAndValidation(SELENA(0.2, 0.2).split(100, 0), undefined, 5)).toThrow(
      /partition\.validation: expected a preset with a non-member pool \(PAST6, CCL4, CCL5, RELAX5\), got "SELENA\(0\.2, 0\.2\)"/,
    );
    expect(() => capAndValidation(CCL4.split(40, 0), undefined, 10)).toThrow(
      "partition.validation: expected fewer than the 10 examples of CCL4's target_test role, got 10",
    );
  });
});

describe('top1Accuracy', () => {
  it('counts argmax hits and rejects logits of the wrong length', () => {
    expect(top1Accuracy(Float32Array.from([1, 2, 5, 0, 0, 0.5]), Int32Array.from([1, 0]), 3)).toBe(0);
    expect(top1Accuracy(Float32Array.from([1, 2, 5, 0, 0, 0.5]), Int32Array.from([2, 0]), 3)).toBe(0.5);
    expect(() => top1Accuracy(new Float32Array(5), Int32Array.from([0, 1]), 3)).toThrow('top1Accuracy: logits must have 2·3 values, got 5');
  });
});

describe('a run with a validation slice', () => {
  const config = parseExperimentConfig({
    name: 'validation',
    scale: 'smoke',
    seed: 2,
    dataset: { name: 'purchaseLike', size: 1200 },
    partition: { preset: 'PAST6', maxPerRole: 80, validation: 60 },
    model: { name: 'mlp', options: { hidden: [32] } },
    training: { epochs: 4, batchSize: 32, lr: 0.1 },
    defenses: [
      { name: 'none', label: 'w/o' },
      { name: 'past', label: 'PAST λ=0', params: { lambda: 0, tuneEpochs: 1 } },
    ],
    attacks: ['loss'],
  });

  it('reports the target accuracy on the slice, the same from the cache, and the slice in the partition sizes', async () => {
    const data = await prepareData(config);
    expect(data.partition.roles.validation).toHaveLength(60);
    const store = new DirectoryArtifactStore(join(dir, 'cache'));
    const before = tf.memory().numTensors;
    const first = await runExperiment(config, { store });
    expect(tf.memory().numTensors).toBe(before);
    expect(first.partition.sizes.validation).toBe(60);
    for (const row of first.rows) {
      expect(row.validationAccuracy).toBeGreaterThanOrEqual(0);
      expect(row.validationAccuracy).toBeLessThanOrEqual(1);
      // Multiples of 1/60: counted on the 60 examples of the slice.
      expect(Math.abs(row.validationAccuracy! * 60 - Math.round(row.validationAccuracy! * 60))).toBeLessThan(1e-9);
    }
    const second = await runExperiment(config, { store });
    expect(second.rows.map((r) => r.cache.target)).toEqual(['hit', 'hit']);
    expect(second.rows.map((r) => r.validationAccuracy)).toEqual(first.rows.map((r) => r.validationAccuracy));
    // The per-epoch curve of the target trained from scratch: one value per epoch, the last one the
    // final model's (the same slice, the same weights), kept with the cached unit.
    const curve = first.rows[0]!.trainingMetrics?.target?.validationCurve as number[] | undefined;
    expect(curve).toHaveLength(4);
    expect(curve![3]).toBeCloseTo(first.rows[0]!.validationAccuracy!, 12);
    expect(second.rows[0]!.trainingMetrics?.target?.validationCurve).toEqual(curve);
    // PAST's unit records its tuning epochs only (its phase 1 is the w/o unit, with its own curve).
    const tuning = first.rows[1]!.trainingMetrics?.target?.validationCurve as number[] | undefined;
    if (tuning !== undefined) expect(tuning.length).toBeLessThanOrEqual(1);
    // Without the slice the rows have no validation accuracy and no curve.
    const plain = await runExperiment({ ...config, partition: { preset: 'PAST6', maxPerRole: 80 } }, { store });
    expect(plain.rows.every((r) => r.validationAccuracy === undefined)).toBe(true);
    expect(plain.rows.every((r) => r.trainingMetrics?.target?.validationCurve === undefined)).toBe(true);
  });

  it('the monitor leaves the trained model unchanged (same logits with and without it)', async () => {
    const withSlice = await runExperiment(config, { store: new DirectoryArtifactStore(join(dir, 'a')) });
    const without = await runExperiment({ ...config, partition: { preset: 'PAST6', maxPerRole: 80 } }, { store: new DirectoryArtifactStore(join(dir, 'b')) });
    expect(withSlice.rows[0]!.trainAccuracy).toBe(without.rows[0]!.trainAccuracy);
    expect(withSlice.rows[0]!.testAccuracy).toBe(without.rows[0]!.testAccuracy);
    expect(withSlice.rows[0]!.maxAdvantage).toBe(without.rows[0]!.maxAdvantage);
  });
});
