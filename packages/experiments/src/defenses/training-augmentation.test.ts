import * as tf from '@tensorflow/tfjs-core';
import { useWasmTraining } from '@mia/backend-wasm';
import { seededRandom } from '@mia/core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DirectoryArtifactStore } from '../store/artifact-store';
import { parseExperimentConfig } from '../config/parse-config';
import { runExperiment } from '../run/runner';
import { trainingAugmentation } from './training-augmentation';

const dir = mkdtempSync(join(tmpdir(), 'mia-train-augment-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(async () => {
  await useWasmTraining();
});

const images = (augment?: { crop?: number; flip?: boolean }, defenses: unknown[] = [{ name: 'none', label: 'w/o' }], preset = 'CCL4') =>
  parseExperimentConfig({
    name: 'train-aug',
    scale: 'smoke',
    seed: 4,
    dataset: { name: 'cifar10' },
    partition: { preset, maxPerRole: 40 },
    model: { name: 'small-cnn', options: {} },
    training: { epochs: 2, batchSize: 20, lr: 0.05, ...(augment === undefined ? {} : { augment }) },
    defenses,
    attacks: ['loss'],
  });

describe('training.augment', () => {
  it('is absent unless asked for, so configs without it keep their cache keys; defaults crop 4 and flip', () => {
    expect('augment' in images().training).toBe(false);
    expect(images({}).training.augment).toEqual({ crop: 4, flip: true });
    expect(() => images({ crop: 40 })).toThrow(/training\.augment\.crop/);
  });

  it('crops and flips per image from the seeded stream: crop 0 without flip is the identity, flip mirrors some images', () => {
    const x = tf.tidy(() => tf.randomUniform([8, 4, 4, 3], 0, 1, 'float32', 1));
    const identity = trainingAugmentation(images({ crop: 0, flip: false }).training)!;
    const same = identity(x, seededRandom(1));
    expect(same.arraySync()).toEqual(x.arraySync());
    const flipOnly = trainingAugmentation(images({ crop: 0, flip: true }).training)!;
    const a = flipOnly(x, seededRandom(2));
    const b = flipOnly(x, seededRandom(2));
    expect(a.arraySync()).toEqual(b.arraySync());
    const mirrored = tf.tidy(() => tf.reverse(x, 2));
    const rows = (t: tf.Tensor) => (t.arraySync() as number[][][][]).map((img) => JSON.stringify(img));
    const [ra, rx, rm] = [rows(a), rows(x), rows(mirrored)];
    const flipped = ra.filter((r, i) => r === rm[i]).length;
    expect(ra.every((r, i) => r === rx[i] || r === rm[i])).toBe(true);
    expect(flipped).toBeGreaterThan(0);
    expect(flipped).toBeLessThan(8);
    tf.dispose([x, same, a, b, mirrored]);
    expect(trainingAugmentation(images().training)).toBeUndefined();
  });

  it('trains a different model than without augmentation, reproducibly, and queries the un-augmented members', async () => {
    const before = tf.memory().numTensors;
    const plain = await runExperiment(images(), { store: new DirectoryArtifactStore(join(dir, 'plain')) });
    const first = await runExperiment(images({ crop: 2 }), { store: new DirectoryArtifactStore(join(dir, 'a')) });
    const second = await runExperiment(images({ crop: 2 }), { store: new DirectoryArtifactStore(join(dir, 'b')) });
    expect(tf.memory().numTensors).toBe(before);
    expect(first.rows[0]!.cache.target).toBe('miss');
    const measured = (r: (typeof first.rows)[number]) => [r.trainAccuracy, r.testAccuracy, r.lossGap, r.lossVariance, r.attacks[0]!.auc];
    expect(measured(second.rows[0]!)).toEqual(measured(first.rows[0]!));
    expect(measured(first.rows[0]!)).not.toEqual(measured(plain.rows[0]!));
  }, 240_000);

  it('is refused before training on tabular data and by defenses whose own loop does not apply it', async () => {
    const store = new DirectoryArtifactStore(join(dir, 'refused'));
    const tabular = { ...images({}), dataset: { name: 'purchaseLike', size: 600 }, model: { name: 'mlp', options: { hidden: [8] } } };
    await expect(runExperiment(parseExperimentConfig(tabular), { store })).rejects.toThrow(
      /training\.augment: crops and flips need image data .*purchaseLike has input shape \[600\]/,
    );
    const advreg = [{ name: 'none' }, { name: 'advreg', params: { alpha: 1 } }];
    expect(() => images({}, advreg, 'PAST6')).toThrow(
      /defenses\[1\]\.params: expected a run without training\.augment \(this defense's own training loop does not apply it\), got training\.augment \{"crop":4,"flip":true\}/,
    );
    expect(images(undefined, advreg, 'PAST6').defenses).toHaveLength(2);
  });
});
