import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { optionsSchema } from '@mia/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { experimentJsonSchema } from '../config/json-schema';
import { parseExperimentConfig } from '../config/parse-config';
import { configProblems } from '../test-utils/config-problems';
import type { ExperimentResults } from '../run/results';
import { runExperiment } from '../run/runner';
import { DirectoryArtifactStore } from '../store/artifact-store';
import { defineAttack } from './definition';
import { registerAttack } from './registry';

const dir = mkdtempSync(join(tmpdir(), 'mia-record-attacks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(async () => {
  await tf.setBackend('cpu');
});

const base = {
  name: 'record-attacks',
  scale: 'smoke',
  seed: 5,
  dataset: { name: 'purchaseLike', size: 1200 },
  partition: { preset: 'CCL4', maxPerRole: 60 },
  model: { name: 'mlp', options: { hidden: [16] } },
  training: { epochs: 20, batchSize: 20, lr: 0.2 },
  defenses: [{ name: 'none' }],
};
const problems = (attacks: unknown, extra: Record<string, unknown> = {}): string[] => configProblems({ ...base, ...extra, attacks });
const row = (results: ExperimentResults, attack: string) => results.rows[0]!.attacks.find((a) => a.attack === attack)!;

describe('QMIA and the label-only boundary distance in a config', () => {
  it('are validated whole before anything trains, each problem named by its path', () => {
    expect(
      problems([
        { name: 'qmia', params: { alpha: 1, objective: 'median', hiden: [8] } },
        { name: 'boundary-distance', params: { budget: 0, clipMin: 1, clipMax: 0 } },
      ]),
    ).toEqual([
      expect.stringMatching(/^attacks\[0\]\.params\.hiden: expected one of the options alpha, .*got an unknown option$/),
      expect.stringMatching(/^attacks\[0\]\.params\.alpha: expected a number in \(0, 1\).*got 1$/),
      expect.stringMatching(/^attacks\[0\]\.params\.objective: expected one of "pinball", "gaussian".*got "median"$/),
      expect.stringMatching(/^attacks\[1\]\.params\.budget: expected an integer ≥ 1.*got 0$/),
    ]);
    expect(problems([{ name: 'boundary-distance', params: { clipMin: 1, clipMax: 0 } }])).toEqual([
      'attacks[0].params.clipMax: expected a number above clipMin (1), got 0',
    ]);
    // QMIA queries the target on the population: refused with a defense that perturbs its outputs, as RMIA is.
    const memguard = { defenses: [{ name: 'memguard' }], partition: { preset: 'CCL5', maxPerRole: 60 } };
    expect(problems(['qmia'], memguard)).toEqual([
      expect.stringMatching(/^attacks\[0\]: expected an attack that does not query the target on population examples: defense memguard/),
    ]);
    expect(problems(['boundary-distance'], memguard)).toEqual([]);
  });

  it('registerAttack refuses a records or labelQueries need that is not a boolean', () => {
    const attack = (needs: Record<string, unknown>) =>
      defineAttack({ name: 'test-bad-records', description: 'test', schema: optionsSchema({}), needs: needs as never, create: () => undefined as never });
    expect(() => registerAttack(attack({ shadow: false, records: 'yes' }))).toThrow(/needs\.records must be true or false, got "yes"/);
    expect(() => registerAttack(attack({ shadow: true, labelQueries: 1 }))).toThrow(/needs\.labelQueries must be true or false, got 1/);
  });

  it('`mia schema` lists them with their params, and the language-model attacks of `mia attack --scores` apart', () => {
    const schema = experimentJsonSchema() as { properties: Record<string, any>; $defs: Record<string, any> };
    const variants = schema.properties.attacks.items.anyOf.slice(1) as Array<Record<string, any>>;
    const of = (name: string) => variants.find((v) => v.properties.name.const === name)!.properties.params.properties;
    expect(of('qmia').alpha).toMatchObject({ type: 'number', default: 0.01 });
    expect(of('boundary-distance').budget).toMatchObject({ type: 'integer', minimum: 1, default: 1000 });
    expect(of('boundary-distance').clipMin.default).toBeUndefined();
    expect(of('boundary-distance').parallel).toMatchObject({ type: 'integer', minimum: 1, default: 16 });
    expect(of('boundary-distance').batchSize).toMatchObject({ type: 'integer', minimum: 1, default: 256 });
    const tokens = schema.$defs.tokenAttacks.anyOf as Array<Record<string, any>>;
    expect(tokens.map((v) => v.properties.name.const)).toEqual(['llm-loss', 'zlib', 'min-k', 'min-k++', 'reference-ratio']);
    expect(tokens[2]!.properties.params.properties.k).toMatchObject({ type: 'number', default: 0.2 });
    expect(schema.properties.attacks.items.anyOf[0].enum).not.toContain('min-k');
  });
});

describe('QMIA and the boundary distance in a run', () => {
  const store = new DirectoryArtifactStore(join(dir, 'store'));
  const attacks = [
    { name: 'qmia', params: { hidden: [16], epochs: 10, objective: 'gaussian' } },
    { name: 'boundary-distance', params: { budget: 12, initEvals: 4, initTrials: 4 } },
  ];

  it('QMIA alone trains no shadow model, and scores from the records the target never saw', async () => {
    const alone = await runExperiment(parseExperimentConfig({ ...base, attacks: [attacks[0]] }), { store });
    expect(alone.rows[0]!.cache).toEqual({ target: 'miss', shadow: 'none' });
    const qmia = row(alone, 'qmia');
    expect(qmia.auc).toBeGreaterThan(0.5);
    expect(Number.isFinite(qmia.advantage)).toBe(true);
  }, 240_000);

  it('leaks no tensor: the records, the loaded models and the label queries are freed after the attacks', async () => {
    const fresh = new DirectoryArtifactStore(join(dir, 'leak'));
    const before = tf.memory().numTensors;
    await runExperiment(parseExperimentConfig({ ...base, attacks }), { store: fresh });
    await new Promise((resolve) => setImmediate(resolve)); // the loaded models are freed once their promises settle
    expect(tf.memory().numTensors).toBe(before);
  }, 300_000);

  it('both run beside each other; a rerun answers from the cache with the same numbers and queries no model', async () => {
    const lines: string[] = [];
    const first = await runExperiment(parseExperimentConfig({ ...base, attacks }), { store, onLog: (l) => lines.push(l) });
    // QMIA's outputs are those of the run above (the same target and params: no shadow in its key); the boundary distance queries the models.
    expect(lines.filter((l) => /^cache hit .*: qmia attack/.test(l))).toHaveLength(1);
    expect(lines.filter((l) => /^training .*: boundary-distance attack model on 120 shadow signals/.test(l))).toHaveLength(1);
    const bd = row(first, 'boundary-distance');
    // The target memorises its 60 members (test accuracy ~5 % on 100 classes): a misclassified record has distance 0.
    expect(bd.auc).toBeGreaterThan(0.8);
    const again: string[] = [];
    const second = await runExperiment(parseExperimentConfig({ ...base, attacks }), { store, onLog: (l) => again.push(l) });
    expect(again.filter((l) => /^cache hit .*: (qmia|boundary-distance) attack/.test(l))).toHaveLength(2);
    expect(again.some((l) => /^training .*attack model/.test(l))).toBe(false);
    for (const name of ['qmia', 'boundary-distance']) expect(row(second, name)).toEqual(row(first, name));
    // How the queries are batched changes no distance: other `parallel` and `batchSize`, the same attack.
    const batched = [{ ...attacks[1]!, params: { ...attacks[1]!.params, parallel: 5, batchSize: 7 } }];
    const queried: string[] = [];
    const third = await runExperiment(parseExperimentConfig({ ...base, attacks: batched }), { store, onLog: (l) => queried.push(l) });
    expect(queried.filter((l) => /^training .*: boundary-distance attack model/.test(l))).toHaveLength(1); // measured again, not read from the cache
    expect(row(third, 'boundary-distance')).toEqual(row(first, 'boundary-distance'));
  }, 300_000);
});
