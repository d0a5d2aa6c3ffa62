import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { option, optionsSchema } from '@mia/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DirectoryArtifactStore } from '../store/artifact-store';
import { parseExperimentConfig } from '../config/parse-config';
import { defineDefense } from './definition';
import { registerDefense } from './registry';
import { queueTrainer } from '../queue/queue-sweep';
import { startQueueWorker } from '../queue/queue-worker';
import { parseQueueUrl } from '../queue/queue-url';
import { connectRedis } from '../queue/redis-connection';
import { hasRedisServer, startRedisServer } from '../queue/redis-test-server';
import type { ExperimentResults } from '../run/results';
import { runExperiment } from '../run/runner';
import { scaledCrossEntropy } from '../test-utils/user-defense-fixture';
import { trainWithPlugins } from './train-helpers';

const dir = mkdtempSync(join(tmpdir(), 'mia-user-defense-'));
const cleanup: Array<() => unknown> = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
  rmSync(dir, { recursive: true, force: true });
});
beforeAll(async () => {
  await tf.setBackend('cpu');
});

// The user defense (registered by its module, test-utils/user-defense-fixture.ts) beside `none`.
const config = parseExperimentConfig({
  name: 'user-defense',
  scale: 'smoke',
  seed: 3,
  dataset: { name: 'purchaseLike', size: 1200 },
  partition: { preset: 'CCL4', maxPerRole: 100 },
  model: { name: 'mlp', options: { hidden: [16] } },
  training: { epochs: 5, batchSize: 20, lr: 0.1 },
  defenses: [{ name: 'none' }, { name: scaledCrossEntropy.name, label: 'scaled', params: { weight: 0.25 } }],
  attacks: ['loss'],
});
const numbers = (r: ExperimentResults) => r.rows.map((row) => [row.trainAccuracy, row.testAccuracy, row.lossGap, row.attacks[0]!.auc]);

let inThread: ExperimentResults;
beforeAll(async () => {
  inThread = await runExperiment(config, { store: new DirectoryArtifactStore(join(dir, 'in-thread')) });
}, 120_000);

describe('a user defense defined in a module', () => {
  it('trains in the main thread and is its own model (not the undefended one)', () => {
    expect(inThread.rows.map((r) => r.label)).toEqual(['none', 'scaled']);
    expect(numbers(inThread)[1]).not.toEqual(numbers(inThread)[0]);
  });

  it('trains under workers: 2 with the same numbers: the worker threads import its module', async () => {
    const logs: string[] = [];
    const pooled = await runExperiment(config, { store: new DirectoryArtifactStore(join(dir, 'pooled')), workers: 2, onLog: (l) => logs.push(l) });
    expect(logs.filter((l) => /^\[worker \d\] trained {4}scaled\//.test(l))).toHaveLength(2);
    expect(pooled.rows.map((r) => r.cache)).toEqual([
      { target: 'miss', shadow: 'miss' },
      { target: 'miss', shadow: 'miss' },
    ]);
    expect(numbers(pooled)).toEqual(numbers(inThread));
  }, 120_000);

  it('a defense registered without a module is refused up front for workers, before any data loads', async () => {
    registerDefense(
      defineDefense({
        name: 'test-local-only',
        description: 'no module',
        schema: optionsSchema({ w: option.number({ default: 1 }) }),
        train: (ctx) => trainWithPlugins(ctx, []),
      }),
    );
    const local = {
      ...config,
      defenses: [
        { name: 'none', params: {} },
        { name: 'test-local-only', params: {} },
      ],
    };
    const loadData = vi.fn();
    await expect(runExperiment(local, { workers: 2, loadData })).rejects.toThrow(
      'defenses[1].name: the defense "test-local-only" was registered in this process without a module, so worker threads and queue workers cannot load it',
    );
    await expect(runExperiment(local, { placement: { where: () => 'elsewhere', train: vi.fn() }, loadData })).rejects.toThrow(
      /registered in this process without a module/,
    );
    expect(loadData).not.toHaveBeenCalled();
  });
});

describe.skipIf(!hasRedisServer())(
  `a user defense on a BullMQ worker${hasRedisServer() ? '' : ' (SKIPPED: redis-server is not on PATH; apt-get install -y redis-server)'}`,
  () => {
    it('trains through the queue with the same numbers: the job carries the module, the worker thread imports it', async () => {
      const redis = await startRedisServer();
      cleanup.push(redis.stop);
      const connection = await connectRedis(parseQueueUrl(`${redis.url}/2`));
      cleanup.push(() => connection.disconnect());
      const store = new DirectoryArtifactStore(join(dir, 'queue'));
      const logs: string[] = [];
      const worker = startQueueWorker(connection, { artifacts: store.root, concurrency: 2, onLog: (l) => logs.push(l) });
      cleanup.push(() => worker.stop('release'));
      const queued = await runExperiment(config, { store, placement: queueTrainer(connection, { pollMs: 100 }) });
      await worker.stop('finish');
      expect(logs.filter((l) => l.startsWith('trained    scaled/'))).toHaveLength(2);
      expect(numbers(queued)).toEqual(numbers(inThread));
    }, 180_000);
  },
);
