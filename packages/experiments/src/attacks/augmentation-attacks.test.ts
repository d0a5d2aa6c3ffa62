import * as tf from '@tensorflow/tfjs-core';
import { useWasmTraining } from '@mia/backend-wasm';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DirectoryArtifactStore } from '../store/artifact-store';
import { parseExperimentConfig } from '../config/parse-config';
import { runExperiment } from '../run/runner';

const dir = mkdtempSync(join(tmpdir(), 'mia-augmentation-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(async () => {
  await useWasmTraining();
});

describe('augmentation attacks in the runner', () => {
  const images = (attacks: string[]) =>
    parseExperimentConfig({
      name: 'aug',
      scale: 'smoke',
      seed: 3,
      dataset: { name: 'cifar10' },
      partition: { preset: 'CCL4', maxPerRole: 40 },
      model: { name: 'small-cnn', options: {} },
      training: { epochs: 1, batchSize: 40, lr: 0.05 },
      defenses: [{ name: 'none', label: 'w/o' }],
      attacks,
      augmentation: { rotationDegrees: 1, translationDistance: 1 },
    });

  it('adds rotation and translation to a finished run without retraining; their query logits are cached', async () => {
    const store = new DirectoryArtifactStore(join(dir, 'f'));
    const first = await runExperiment(images(['loss']), { store });
    const lines: string[] = [];
    const before = tf.memory().numTensors;
    const second = await runExperiment(images(['loss', 'rotation', 'translation']), { store, onLog: (l) => lines.push(l) });
    expect(tf.memory().numTensors).toBe(before);
    expect(second.rows[0]!.cache).toEqual({ target: 'hit', shadow: 'hit' });
    expect(second.rows[0]!.attacks.map((a) => a.attack)).toEqual(['loss', 'rotation', 'translation']);
    expect(second.rows[0]!.attacks[0]!.auc).toBe(first.rows[0]!.attacks[0]!.auc);
    for (const a of second.rows[0]!.attacks) expect(a.auc).toBeGreaterThanOrEqual(0);
    expect(lines.filter((l) => l.startsWith('queried '))).toEqual([
      expect.stringMatching(/w\/o\/target: rotation, 3 queries/),
      expect.stringMatching(/w\/o\/shadow: rotation, 3 queries/),
      expect.stringMatching(/w\/o\/target: translation, 5 queries/),
      expect.stringMatching(/w\/o\/shadow: translation, 5 queries/),
    ]);
    const third = await runExperiment(images(['rotation', 'translation']), { store, onLog: (l) => lines.push(l) });
    expect(third.rows[0]!.attacks.map((a) => a.auc)).toEqual(second.rows[0]!.attacks.slice(1).map((a) => a.auc));
    expect(lines.filter((l) => l.startsWith('queried '))).toHaveLength(4);
  }, 180_000);

  it('refuses augmentation attacks on tabular data before training anything', async () => {
    const store = new DirectoryArtifactStore(join(dir, 'g'));
    await expect(
      runExperiment(
        parseExperimentConfig({
          name: 'tabular',
          scale: 'smoke',
          dataset: { name: 'purchaseLike', size: 600 },
          partition: { preset: 'CCL4', maxPerRole: 50 },
          model: { name: 'mlp', options: { hidden: [8] } },
          training: { epochs: 1, batchSize: 25, lr: 0.1 },
          defenses: [{ name: 'none' }],
          attacks: ['loss', 'rotation'],
        }),
        { store },
      ),
    ).rejects.toThrow(/attacks rotation query augmented images and need image data \(\[h, w, c\]\); dataset purchaseLike has input shape \[600\]/);
    expect(await store.list()).toEqual([]);
  });

  it('validates the augmentation settings, naming the field and the value', () => {
    const bad = (augmentation: unknown) => () =>
      parseExperimentConfig({
        name: 'bad',
        dataset: { name: 'cifar10' },
        partition: {},
        model: { name: 'small-cnn' },
        training: { epochs: 1, batchSize: 8, lr: 0.1 },
        defenses: [{ name: 'none' }],
        augmentation,
      });
    expect(bad({ rotationDegrees: -4 })).toThrow('augmentation.rotationDegrees: expected a number > 0, got -4');
    expect(bad({ translationDistance: 1.5 })).toThrow('augmentation.translationDistance: expected an integer, got 1.5');
    expect(
      parseExperimentConfig({
        name: 'ok',
        dataset: { name: 'cifar10' },
        partition: {},
        model: { name: 'small-cnn' },
        training: { epochs: 1, batchSize: 8, lr: 0.1 },
        defenses: [{ name: 'none' }],
      }).augmentation,
    ).toEqual({ rotationDegrees: 4, translationDistance: 1 });
  });
});
