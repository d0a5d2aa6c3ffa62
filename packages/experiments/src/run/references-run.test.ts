import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseExperimentConfig } from '../config/parse-config';
import { writeReport } from '../report/write-report';
import { DirectoryArtifactStore } from '../store/artifact-store';
import { exportReferences } from '../references/reference-export';
import { REFERENCE_DEFENSE } from '../plan/plan-run';
import { unitKey } from '../plan/unit-key';
import { trainUnit } from '../train/train-unit';
import { prepareData } from '../data/prepare-data';
import { runExperiment } from './runner';

const dir = mkdtempSync(join(tmpdir(), 'mia-references-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(async () => {
  await tf.setBackend('cpu');
});

// Smoke scale: 100 members and 100 non-members of the Purchase stand-in, 4 tiny reference models in pairs.
const config = parseExperimentConfig({
  name: 'references-smoke',
  scale: 'smoke',
  seed: 4,
  dataset: { name: 'purchaseLike', size: 1200 },
  partition: { preset: 'CCL4', maxPerRole: 100 },
  model: { name: 'mlp', options: { hidden: [16] } },
  training: { epochs: 4, batchSize: 20, lr: 0.05 },
  defenses: [{ name: 'none' }],
  references: { count: 4, scheme: 'paired' },
  attacks: [
    'loss',
    'lira',
    { name: 'lira', label: 'lira-offline', params: { mode: 'offline' } },
    { name: 'lira', label: 'lira-2', params: { models: 2 } },
    'rmia',
  ],
});

describe('mia run with references', () => {
  it('trains the reference models as cached units, runs LiRA and RMIA on them, and a rerun reads them from the cache', async () => {
    const store = new DirectoryArtifactStore(join(dir, 'cache'));
    const before = tf.memory().numTensors;
    const first = await runExperiment(config, { store });
    expect(tf.memory().numTensors).toBe(before);
    const row = first.rows[0]!;
    expect(row.attacks.map((a) => a.attack)).toEqual(['loss', 'lira', 'lira-offline', 'lira-2', 'rmia']);
    expect(first.references).toMatchObject({ count: 4, scheme: 'paired', auditExamples: 200, populationExamples: 200, trainedInThisRun: 4 });
    expect(first.references!.seconds.every((s) => s > 0)).toBe(true);
    // An overfitted MLP on 60 members: the reference attacks separate members from non-members.
    const auc = (name: string) => row.attacks.find((a) => a.attack === name)!.auc;
    expect(auc('lira')).toBeGreaterThan(0.6);
    expect(auc('rmia')).toBeGreaterThan(0.6);
    // Fewer references are a different attack (2 of the 4 models).
    expect(auc('lira-2')).not.toBe(auc('lira'));
    // TPR at 0.1 % FPR carries its 95 % bootstrap interval; the other FPRs do not.
    for (const a of row.attacks) {
      const [one, tenth, zero] = a.tprAtFpr;
      expect(tenth!.fpr).toBe(0.001);
      expect(tenth!.tprLow!).toBeLessThanOrEqual(tenth!.tpr);
      expect(tenth!.tprHigh!).toBeGreaterThanOrEqual(tenth!.tpr);
      expect([one!.tprLow, zero!.tprLow]).toEqual([undefined, undefined]);
    }
    // Target, shadow, 4 reference models and the target's population logits.
    expect((await store.list()).map((e) => e.meta.kind).sort()).toEqual([
      'population-logits',
      'trained-model',
      'trained-model',
      'trained-model',
      'trained-model',
      'trained-model',
      'trained-model',
    ]);

    const logs: string[] = [];
    const second = await runExperiment(config, { store, onLog: (l) => logs.push(l) });
    expect(second.references!.trainedInThisRun).toBe(0);
    expect(logs.filter((l) => l.startsWith('training'))).toEqual([]);
    expect(second.rows[0]!.attacks.map((a) => a.auc)).toEqual(row.attacks.map((a) => a.auc));

    // report.md shows the reference models and a log-log ROC of the attacks, drawn beside it.
    const out = join(dir, 'report');
    await writeReport(first, out);
    const markdown = readFileSync(join(out, 'report.md'), 'utf8');
    expect(markdown).toContain('## Reference models');
    expect(markdown).toContain('4 reference models trained without the defense on random halves of the audit examples (scheme paired');
    expect(markdown).toContain('![ROC of the attacks, none (log-log)](roc-attacks-1.svg)');
    expect(markdown).toMatch(/\| lira \| [\d.]+ \| -?[\d.]+ \| [\d.]+ \| [\d.]+ \(@[\d.]+\) \| [\d.]+ \\?\[[\d.]+–[\d.]+\\?\] \(@/);
    expect(readFileSync(join(out, 'roc-attacks-1.svg'), 'utf8')).toMatch(/^<svg/);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('data-section="reference-models"');

    // Exported in Carlini et al.'s layout and imported back: the same attacks give the same numbers.
    const exported = join(dir, 'exported');
    const data = await prepareData(config);
    expect(await exportReferences(config, data, store, exported)).toHaveLength(4);
    expect(existsSync(join(exported, 'experiment-3', 'keep.npy'))).toBe(true);
    const imported = await runExperiment({ ...config, references: { import: exported } }, { store });
    expect(imported.references).toMatchObject({ count: 4, imported: exported, trainedInThisRun: 0 });
    expect(imported.rows[0]!.attacks.map((a) => [a.attack, a.auc])).toEqual(row.attacks.map((a) => [a.attack, a.auc]));
    // With their hparams.json (the export writes it), imported references trained as the target raise no finding.
    expect(JSON.parse(readFileSync(join(exported, 'experiment-0', 'hparams.json'), 'utf8'))).toMatchObject({
      format: 'mia-reference-hparams-1',
      architecture: config.model,
    });
    expect(imported.doctor!.findings).toEqual([]);
    // Declared with another architecture: training-mismatch, named; without hparams.json: a note that they are not checked.
    const hparams = JSON.parse(readFileSync(join(exported, 'experiment-1', 'hparams.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(exported, 'experiment-1', 'hparams.json'), JSON.stringify({ ...hparams, architecture: { name: 'resnet18', options: {} } }));
    rmSync(join(exported, 'experiment-2', 'hparams.json'));
    const mismatched = await runExperiment({ ...config, references: { import: exported } }, { store });
    expect(mismatched.doctor!.findings.map((f) => f.code)).toEqual(['training-mismatch']);
    expect(mismatched.doctor!.findings[0]!.cause).toMatch(/^imported reference model 1 was trained with another architecture than the target declares/);
    expect(mismatched.doctor!.notes[0]).toMatch(
      /^1 of 4 imported reference models have no hparams\.json \(models 2\): their architecture, training and data are not checked/,
    );
  }, 120_000);

  it('hands the reference units to the distributed path (worker pool, queue) with the targets and shadows', async () => {
    const store = new DirectoryArtifactStore(join(dir, 'cache-queue'));
    const requested: string[] = [];
    const results = await runExperiment(
      { ...config, attacks: ['loss', 'lira'] },
      {
        store,
        // Stands in for the queue: trains each requested unit into the store, as `mia worker` does.
        placement: {
          where: () => 'on the stand-in queue',
          train: async ({ plan, units }) => {
            for (const unit of units) {
              requested.push(`${unit.defenseIndex}:${unit.role}`);
              await trainUnit(unit, { config: plan.config, data: plan.data, store }, {});
            }
          },
        },
      },
    );
    expect(requested).toEqual(['0:target', '0:shadow', '-1:reference-0', '-1:reference-1', '-1:reference-2', '-1:reference-3']);
    // Trained elsewhere in this run: reported as trained, not as cache hits.
    expect(results.references!.trainedInThisRun).toBe(4);
  }, 120_000);

  it('trains no shadow model when no attack of the run uses one (lira, rmia), and the same target and references give the same numbers', async () => {
    // The in-thread path: what the store holds after the run.
    const store = new DirectoryArtifactStore(join(dir, 'cache-no-shadow'));
    const referencesOnly = { ...config, attacks: config.attacks.filter((a) => a !== 'loss') };
    const results = await runExperiment(referencesOnly, { store });
    const data = await prepareData(config);
    const defense = config.defenses[0]!;
    const models = (await store.list()).filter((e) => e.meta.kind === 'trained-model').map((e) => e.key);
    expect(models.sort()).toEqual(
      [unitKey(config, data, defense, 'target'), ...[0, 1, 2, 3].map((k) => unitKey(config, data, REFERENCE_DEFENSE, `reference-${k}`))].sort(),
    );
    expect(await store.read(unitKey(config, data, defense, 'shadow'))).toBeUndefined();
    const row = results.rows[0]!;
    expect(row.cache).toEqual({ target: 'miss', shadow: 'none' });
    expect(row.attacks.map((a) => a.attack)).toEqual(['lira', 'lira-offline', 'lira-2', 'rmia']);
    const out = join(dir, 'report-no-shadow');
    await writeReport(results, out);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('No shadow model was trained: no attack of this run uses one.');

    // The distributed path is not asked for a shadow either (the queue / worker-pool hook).
    const requested: string[] = [];
    const queueStore = new DirectoryArtifactStore(join(dir, 'cache-no-shadow-queue'));
    await runExperiment(referencesOnly, {
      store: queueStore,
      placement: {
        where: () => 'on the stand-in queue',
        train: async ({ plan, units }) => {
          for (const unit of units) {
            requested.push(`${unit.defenseIndex}:${unit.role}`);
            await trainUnit(unit, { config: plan.config, data: plan.data, store: queueStore }, {});
          }
        },
      },
    });
    expect(requested).toEqual(['0:target', '-1:reference-0', '-1:reference-1', '-1:reference-2', '-1:reference-3']);

    // With loss in the run the shadow trains (one more model), and LiRA and RMIA score exactly as without it.
    const mixed = await runExperiment(config, { store });
    expect(mixed.rows[0]!.cache).toEqual({ target: 'hit', shadow: 'miss' });
    expect(await store.read(unitKey(config, data, defense, 'shadow'))).toBeDefined();
    const scores = (r: typeof results) => r.rows[0]!.attacks.filter((a) => a.attack !== 'loss').map((a) => [a.attack, a.auc, a.tprAtFpr]);
    expect(scores(mixed)).toEqual(scores(results));
  }, 120_000);
});
