import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { optionsSchema } from '@mia/core';
import { metricAttack } from '@mia/attacks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { experimentJsonSchema } from '../config/json-schema';
import { loadExperimentConfig } from '../config/load-config';
import { parseExperimentConfig } from '../config/parse-config';
import { configProblems } from '../test-utils/config-problems';
import { workerModules } from '../config/run-config';
import { queueTrainer } from '../queue/queue-sweep';
import { startQueueWorker } from '../queue/queue-worker';
import { parseQueueUrl } from '../queue/queue-url';
import { connectRedis } from '../queue/redis-connection';
import { hasRedisServer, startRedisServer } from '../queue/redis-test-server';
import type { ExperimentResults } from '../run/results';
import { runExperiment } from '../run/runner';
import { DirectoryArtifactStore } from '../store/artifact-store';
import { attackOutputKey } from './cached-attack-suite';
import { defineAttack } from './definition';
import { ATTACK_NAMES, attackNames, attackNeedsShadow, createAttacks, findAttack, registerAttack } from './registry';

const dir = mkdtempSync(join(tmpdir(), 'mia-attack-registry-'));
const cleanup: Array<() => unknown> = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
  rmSync(dir, { recursive: true, force: true });
});
beforeAll(async () => {
  await tf.setBackend('cpu');
});

const fixture = join(__dirname, '..', 'test-utils', 'user-attack-fixture.ts');
const base = {
  name: 'attack-registry',
  scale: 'smoke',
  seed: 3,
  dataset: { name: 'purchaseLike', size: 1200 },
  partition: { preset: 'CCL4', maxPerRole: 100 },
  model: { name: 'mlp', options: { hidden: [16] } },
  training: { epochs: 5, batchSize: 20, lr: 0.1 },
  defenses: [{ name: 'none' }],
};
const problems = (attacks: unknown, extra: Record<string, unknown> = {}): string[] => configProblems({ ...base, ...extra, attacks });

describe('attacks in a config', () => {
  it('accept a bare name or { name, label, params }, and keep what was written (old configs parse unchanged)', () => {
    const written = ['loss', { name: 'nn-mlh', label: 'nn-mlh short', params: { epochs: 3 } }, { name: 'entropy' }];
    expect(parseExperimentConfig({ ...base, attacks: written }).attacks).toEqual([written[0], written[1], { name: 'entropy', params: {} }]);
    const old = ['correctness', 'loss', 'confidence', 'entropy', 'modifiedEntropy', 'nn-mlh'];
    expect(parseExperimentConfig({ ...base, attacks: old }).attacks).toEqual(old);
    expect(parseExperimentConfig(base).attacks).toEqual(old);
  });

  it('are validated whole, before anything trains: each problem named by its path, the expected and the actual value', () => {
    expect(
      problems(['los', { name: 'nn-mlh', params: { epochs: 0, lr: 1 } }, 42, { name: 'loss', labl: 'x' }, { name: 'lira', params: {} }, 'loss', '']),
    ).toEqual([
      'attacks[2]: expected an attack name (e.g. "loss") or { name, label?, params }, got 42',
      'attacks[3].labl: expected one of the keys name, label, params, got an unknown key',
      'attacks[6]: expected a string of at least 1 characters, got ""',
      `attacks[0]: expected one of ${attackNames().join(', ')} (user attacks: list the module that registers them in \`modules\`), got "los"`,
      'attacks[1].params.lr: expected one of the options epochs, got an unknown option',
      'attacks[1].params.epochs: expected an integer ≥ 1, got 0',
      'references: expected { count: N } (N ≥ 2 reference models trained by the run) or { import: "<dir>" }: attacks[4] (lira) needs reference models, got none',
    ]);
    // A name twice reports under one name twice: refused, with the way out.
    expect(problems(['loss', 'confidence', 'loss'])).toEqual([
      'attacks[2]: expected a name no other attack of the run reports under (attacks[0] reports as "loss"; give one a label), got "loss"',
    ]);
    expect(problems(['nn-mlh', { name: 'nn-mlh', label: 'nn-mlh', params: { epochs: 3 } }])).toEqual([
      'attacks[1].label: expected a name no other attack of the run reports under (attacks[0] reports as "nn-mlh"; give one a label), got "nn-mlh"',
    ]);
    expect(problems(['nn-mlh', { name: 'nn-mlh', label: 'nn-mlh 3 epochs', params: { epochs: 3 } }])).toEqual([]);
    // A defense problem and an attack problem in one pass.
    expect(problems(['los'], { defenses: [{ name: 'ccl', params: { alpha: 2 } }] })).toEqual([
      'defenses[0].params.alpha: expected a number in [0, 1], got 2',
      expect.stringMatching(/^attacks\[0\]: expected one of .* got "los"$/),
    ]);
  });

  it('registerAttack refuses malformed needs, naming the need; reference models and a population are accepted', () => {
    const attack = { description: 'd', schema: optionsSchema({}), create: () => metricAttack('loss') };
    expect(() => registerAttack(defineAttack({ ...attack, name: 'test-refs-0', needs: { shadow: true, references: { min: 0 } } }))).toThrow(
      'registerAttack: attack "test-refs-0": needs.references.min must be a positive integer, got 0',
    );
    expect(() => registerAttack(defineAttack({ ...attack, name: 'test-pop', needs: { shadow: true, population: true } }))).toThrow(
      'registerAttack: attack "test-pop": needs.population needs needs.references too (the population is scored against the reference models)',
    );
    expect(() => registerAttack({ ...attack, name: 'test-no-shadow', needs: { shadow: 'no' } } as never)).toThrow(
      'registerAttack: attack "test-no-shadow": needs.shadow must be true (the attack calibrates on the shadow models) or false (it does not; the run then trains none for it), got "no"',
    );
    expect(() => registerAttack({ ...attack, name: 'test-no-shadow', needs: {} } as never)).toThrow(/needs\.shadow must be true .* got undefined$/);
    expect(() => registerAttack(defineAttack({ ...attack, name: 'test-queries', needs: { shadow: false, queries: 'rotation' } }))).toThrow(
      'registerAttack: attack "test-queries": needs.queries needs needs.shadow: true (the attack fits on the shadow models\' signals on the queries)',
    );
    expect(findAttack('test-no-shadow')).toBeUndefined();
    expect(findAttack('test-queries')).toBeUndefined();
    expect(() => registerAttack({ ...attack, name: '', needs: { shadow: true } })).toThrow('registerAttack: name must be a non-empty string, got ""');
    expect(findAttack('test-refs-0')).toBeUndefined();
    // LiRA and RMIA fit on the reference models, not on a shadow model.
    expect(findAttack('lira')?.needs).toEqual({ shadow: false, references: { min: 2 } });
    expect(findAttack('rmia')?.needs).toEqual({ shadow: false, references: { min: 2 }, population: true });
    expect([attackNeedsShadow('lira'), attackNeedsShadow('rmia'), attackNeedsShadow('loss'), attackNeedsShadow('nn-mlh')]).toEqual([false, false, true, true]);
  });

  it("createAttacks builds each entry from its definition, named by its label, with its params' defaults", () => {
    const [loss, nn] = createAttacks(['loss', { name: 'nn-mlh', label: 'short', params: { epochs: 2 } }], { seed: 1, scale: 'smoke' });
    expect([loss!.name, nn!.name]).toEqual(['loss', 'short']);
    nn!.dispose();
    loss!.dispose();
    expect(() => createAttacks([{ name: 'nn-mlh', params: { epochs: -1 } }], { seed: 1 })).toThrow(
      /attacks\[0\] \(nn-mlh\): epochs must be an integer ≥ 1, got -1/,
    );
    expect(ATTACK_NAMES).toEqual(attackNames().slice(0, ATTACK_NAMES.length));
  });

  it("a bare name keeps the cache key of its trained attack's outputs; params and labels are part of it", () => {
    const signals = { members: { size: 0 }, nonMembers: { size: 0 } } as never;
    const options = { attackOptions: { seed: 1 }, units: { target: 'a' } };
    const key = attackOutputKey('nn-mlh', { target: signals, shadow: signals }, options);
    expect(attackOutputKey('nn-mlh', { target: signals, shadow: signals }, { ...options, entryOf: () => undefined })).toBe(key);
    expect(
      attackOutputKey('nn-mlh', { target: signals, shadow: signals }, { ...options, entryOf: () => ({ attack: 'nn-mlh', params: { epochs: 3 } }) }),
    ).not.toBe(key);
  });
});

describe('a user attack with needs.shadow: false', () => {
  // −loss, fitted on nothing: the ranking of the loss attack, without a shadow model.
  registerAttack(
    defineAttack({
      name: 'test-shadow-free',
      description: 'test: −loss, no calibration',
      schema: optionsSchema({}),
      needs: { shadow: false },
      create: (_options, ctx) => ({
        name: ctx.label,
        prepare: async () => undefined,
        score: (target) => Float64Array.from(target.loss, (l) => -l),
        dispose: () => undefined,
      }),
    }),
  );
  // Declares no shadow but calibrates on one (the loss attack's per-class thresholds).
  registerAttack(
    defineAttack({
      name: 'test-shadow-reader',
      description: 'test: needs.shadow false, but fits on the shadows',
      schema: optionsSchema({}),
      needs: { shadow: false },
      create: (_options, ctx) => metricAttack('loss', { name: ctx.label }),
    }),
  );
  const store = new DirectoryArtifactStore(join(dir, 'shadow-free'));
  const models = async () => (await store.list()).filter((e) => e.meta.kind === 'trained-model').length;

  it('runs alone with the target only (no shadow model), and beside an attack that needs one with the same scores', async () => {
    const alone = await runExperiment(parseExperimentConfig({ ...base, attacks: ['test-shadow-free'] }), { store });
    expect(await models()).toBe(1);
    expect(alone.rows[0]!.cache).toEqual({ target: 'miss', shadow: 'none' });
    expect(auc(alone, 'test-shadow-free')).toBeGreaterThan(0.5);
    const mixed = await runExperiment(parseExperimentConfig({ ...base, attacks: ['loss', 'test-shadow-free'] }), { store });
    expect(await models()).toBe(2);
    expect(mixed.rows[0]!.cache).toEqual({ target: 'hit', shadow: 'miss' });
    expect(auc(mixed, 'test-shadow-free')).toBe(auc(alone, 'test-shadow-free'));
    expect(auc(mixed, 'test-shadow-free')).toBeCloseTo(auc(mixed, 'loss'), 12);
  }, 120_000);

  it('its prepare never sees the shadow signals, even when the run has them: reading them is refused, naming the attack', async () => {
    const message = 'attack reader (test-shadow-reader) declares needs.shadow: false, so its prepare gets no shadow signals; declare needs.shadow: true';
    for (const attacks of [[{ name: 'test-shadow-reader', label: 'reader' }], ['loss', { name: 'test-shadow-reader', label: 'reader' }]])
      await expect(runExperiment(parseExperimentConfig({ ...base, attacks }), { store })).rejects.toThrow(message);
  }, 120_000);
});

describe('the JSON Schema of configs (`mia schema`)', () => {
  it("describes every registered attack: its bare name, or { name, label, params } with the attack's own params schema", async () => {
    await import('../test-utils/user-attack-fixture');
    const schema = experimentJsonSchema() as { properties: Record<string, any> };
    const [names, ...variants] = schema.properties.attacks.items.anyOf as Array<Record<string, any>>;
    expect(names).toEqual({ type: 'string', enum: attackNames() });
    expect(names!.enum).toEqual(expect.arrayContaining(['loss', 'nn-mlh', 'rotation', 'test-weighted-loss']));
    expect(variants.map((v) => v.properties.name.const)).toEqual(attackNames());
    expect(variants.every((v) => v.additionalProperties === false && v.properties.params.additionalProperties === false)).toBe(true);
    const nn = variants.find((v) => v.properties.name.const === 'nn-mlh')!;
    expect(nn.properties.params.properties.epochs).toMatchObject({ type: 'integer', minimum: 1 });
    const user = variants.find((v) => v.properties.name.const === 'test-weighted-loss')!;
    expect(user.description).toMatch(/test fixture/);
    expect(user.properties.params.properties.weight).toMatchObject({ type: 'number', default: 1 });
  });
});

// The user attack from a config file's `modules`, beside the built-in loss attack it rescales.
const yaml = `name: user-attack
scale: smoke
seed: 3
dataset: { name: purchaseLike, size: 1200 }
partition: { preset: CCL4, maxPerRole: 100 }
model: { name: mlp, options: { hidden: [16] } }
training: { epochs: 5, batchSize: 20, lr: 0.1 }
defenses: [{ name: none }]
attacks:
  - loss
  - { name: test-weighted-loss, label: weighted, params: { weight: 2.5 } }
  - { name: test-weighted-loss, label: flipped, params: { weight: -1 } }
modules: [${JSON.stringify(fixture)}]
`;
const auc = (r: ExperimentResults, attack: string) => r.rows[0]!.attacks.find((a) => a.attack === attack)!.auc;

describe('a user attack registered by a module of the config', () => {
  let inThread: ExperimentResults;
  beforeAll(async () => {
    writeFileSync(join(dir, 'user-attack.yaml'), yaml);
    const config = await loadExperimentConfig(join(dir, 'user-attack.yaml'));
    inThread = await runExperiment(config, { store: new DirectoryArtifactStore(join(dir, 'in-thread')) });
  }, 120_000);

  it('runs in this process with its params: same ranking as loss ×2.5, the reverse with −1', () => {
    expect(inThread.rows[0]!.attacks.map((a) => a.attack)).toEqual(['loss', 'weighted', 'flipped']);
    expect(auc(inThread, 'loss')).toBeGreaterThan(0.5);
    expect(auc(inThread, 'weighted')).toBeCloseTo(auc(inThread, 'loss'), 12);
    expect(auc(inThread, 'flipped')).toBeCloseTo(1 - auc(inThread, 'loss'), 12);
    expect(inThread.config.attacks).toEqual(['loss', expect.objectContaining({ label: 'weighted', params: { weight: 2.5 } }), expect.anything()]);
  });

  it('its check runs when the config is checked: weight 0 is refused at attacks[i].params.weight', async () => {
    writeFileSync(join(dir, 'zero.yaml'), yaml.replace('weight: 2.5', 'weight: 0'));
    await expect(loadExperimentConfig(join(dir, 'zero.yaml'))).rejects.toThrow(
      'attacks[1].params.weight: expected a number other than 0 (0 scores every example alike), got 0',
    );
  });

  it('runs with the units trained in worker threads, which import its module, with the same numbers', async () => {
    const config = await loadExperimentConfig(join(dir, 'user-attack.yaml'));
    expect(workerModules(config)).toEqual([pathToFileURL(fixture).href]);
    const logs: string[] = [];
    const pooled = await runExperiment(config, { store: new DirectoryArtifactStore(join(dir, 'pooled')), workers: 2, onLog: (l) => logs.push(l) });
    expect(logs.filter((l) => /^\[worker \d\] trained {4}none\/(target|shadow)/.test(l))).toHaveLength(2);
    expect(pooled.rows[0]!.attacks).toEqual(inThread.rows[0]!.attacks);
  }, 120_000);

  it.skipIf(!hasRedisServer())(
    'runs with the units trained on a BullMQ worker, with the same numbers',
    async () => {
      const redis = await startRedisServer();
      cleanup.push(redis.stop);
      const connection = await connectRedis(parseQueueUrl(`${redis.url}/3`));
      cleanup.push(() => connection.disconnect());
      const store = new DirectoryArtifactStore(join(dir, 'queue'));
      const worker = startQueueWorker(connection, { artifacts: store.root, concurrency: 1 });
      cleanup.push(() => worker.stop('release'));
      const config = await loadExperimentConfig(join(dir, 'user-attack.yaml'));
      const queued = await runExperiment(config, { store, placement: queueTrainer(connection, { pollMs: 100 }) });
      await worker.stop('finish');
      expect(queued.rows[0]!.attacks).toEqual(inThread.rows[0]!.attacks);
    },
    180_000,
  );
});
