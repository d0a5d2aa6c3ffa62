import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseExperimentConfig } from '../config/parse-config';
import { DirectoryArtifactStore } from '../store/artifact-store';
import { runExperiment } from './runner';

const dir = mkdtempSync(join(tmpdir(), 'mia-checkpoint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(async () => {
  await tf.setBackend('cpu');
});

// A small MLP at a high learning rate: its validation accuracy moves from epoch to epoch, so the best
// epoch is rarely the last one.
const input = (checkpoint?: 'last' | 'best-validation', validation: number | null = 150) => ({
  name: 'checkpoint-test',
  scale: 'smoke',
  seed: 2,
  dataset: { name: 'purchaseLike', size: 1500 },
  partition: { preset: 'CCL4', maxPerRole: 120, ...(validation === null ? {} : { validation }) },
  model: { name: 'mlp', options: { hidden: [32] } },
  training: { epochs: 8, batchSize: 16, lr: 0.5, ...(checkpoint === undefined ? {} : { checkpoint }) },
  defenses: [{ name: 'none', label: 'plain' }],
  attacks: ['loss'],
});

describe("training.checkpoint: 'best-validation'", () => {
  it('keeps the target at its best validation epoch (the earliest of ties); last keeps the final epoch; nothing leaks', async () => {
    const store = new DirectoryArtifactStore(join(dir, 'cache'));
    const before = tf.memory().numTensors;
    const best = await runExperiment(parseExperimentConfig(input('best-validation')), { store });
    const last = await runExperiment(parseExperimentConfig(input()), { store });
    expect(tf.memory().numTensors).toBe(before);
    const [b, l] = [best.rows[0]!, last.rows[0]!];
    const curve = b.trainingMetrics!.target!['validationCurve'] as number[];
    expect(curve).toHaveLength(8);
    // The same training either way (the monitor only observes): the same curve.
    expect(l.trainingMetrics!.target!['validationCurve']).toEqual(curve);
    const top = Math.max(...curve);
    const epoch = curve.indexOf(top) + 1;
    expect(b.trainingMetrics!.target!['checkpoint']).toBe('best-validation');
    expect(b.trainingMetrics!.target!['checkpointEpoch']).toBe(epoch);
    // The stored model is that epoch's: its accuracy on the slice is the curve's maximum.
    expect(b.validationAccuracy).toBeCloseTo(top, 12);
    expect(l.validationAccuracy).toBeCloseTo(curve[7]!, 12);
    expect(l.trainingMetrics!.target!['checkpoint']).toBeUndefined();
    // Not vacuous: on this run the best epoch is not the last, so the two models differ.
    expect(epoch).toBeLessThan(8);
    expect(b.testAccuracy).not.toBe(l.testAccuracy);
  }, 120_000);

  it('without a validation slice, is refused before anything trains, naming the field', () => {
    expect(() => parseExperimentConfig(input('best-validation', null))).toThrow(
      /training\.checkpoint: expected "last", or "best-validation" with a validation slice \(partition\.validation.*got "best-validation" without partition\.validation/,
    );
    expect(() => parseExperimentConfig({ ...input(), training: { ...input().training, checkpoint: 'best' } })).toThrow(/training\.checkpoint/);
  });
});
