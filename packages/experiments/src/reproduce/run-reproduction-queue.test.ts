import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import type { Redis } from 'ioredis';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseExperimentConfig } from '../config/parse-config';
import { queueTrainer } from '../queue/queue-sweep';
import { parseQueueUrl } from '../queue/queue-url';
import { startQueueWorker } from '../queue/queue-worker';
import { connectRedis } from '../queue/redis-connection';
import { hasRedisServer, startRedisServer } from '../queue/redis-test-server';
import type { ExperimentResults } from '../run/results';
import { DirectoryArtifactStore } from '../store/artifact-store';
import { runReproduction } from './run-reproduction';
import type { Reproduction } from './types';

// `mia reproduce --queue`: a reproduction's runs (all training seeds at once) trained by a queue worker
// into the shared store, against a real redis-server (Debian `redis-server`, installed by .ci/run).
const dir = mkdtempSync(join(tmpdir(), 'mia-reproduce-queue-'));
const cleanup: Array<() => unknown> = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
  rmSync(dir, { recursive: true, force: true });
});

const config = parseExperimentConfig({
  name: 'reproduce-queue',
  scale: 'smoke',
  seed: 3,
  dataset: { name: 'purchaseLike', size: 1200 },
  partition: { preset: 'CCL4', maxPerRole: 100 },
  model: { name: 'mlp', options: { hidden: [16] } },
  training: { epochs: 3, batchSize: 32, lr: 0.1 },
  defenses: [
    { name: 'none', label: 'undefended' },
    { name: 'ccl', label: 'CCQL', params: { alpha: 0.5, concave: 'quadratic' } },
  ],
  attacks: ['loss'],
});

/** A reproduction that runs the config with 3 training seeds and hands back the aggregate. */
const seeded = (out: { results?: ExperimentResults }): Reproduction => ({
  name: 'queue-demo',
  paper: 'Demo',
  title: 'queue',
  source: 'nowhere',
  async run(ctx) {
    out.results = (await ctx.runSeeds('tiny', config, 3)) as ExperimentResults;
    return { tables: [], claims: [] };
  },
});

describe.skipIf(!hasRedisServer())(
  `runReproduction over a queue${hasRedisServer() ? '' : ' (SKIPPED: redis-server is not on PATH; apt-get install -y redis-server)'}`,
  () => {
    let connection: Redis;
    beforeAll(async () => {
      await tf.setBackend('cpu');
      const redis = await startRedisServer();
      cleanup.push(redis.stop);
      connection = await connectRedis(parseQueueUrl(`${redis.url}/2`));
      cleanup.push(() => connection.disconnect());
    });

    it('queues the units of every training seed at once; a worker trains them into the shared store; the numbers equal a local run', async () => {
      const local: { results?: ExperimentResults } = {};
      await runReproduction(seeded(local), { scale: 'smoke', out: join(dir, 'local'), store: new DirectoryArtifactStore(join(dir, 'local-cache')) });

      const shared = new DirectoryArtifactStore(join(dir, 'shared-cache'));
      const workerLog: string[] = [];
      const worker = startQueueWorker(connection, { artifacts: shared.root, onLog: (l) => workerLog.push(l) });
      cleanup.push(() => worker.stop('release'));
      const coordinatorLog: string[] = [];
      const queued: { results?: ExperimentResults } = {};
      await runReproduction(seeded(queued), {
        scale: 'smoke',
        out: join(dir, 'queued'),
        store: shared,
        placement: queueTrainer(connection, { pollMs: 50, onLog: (l) => coordinatorLog.push(l) }),
        onLog: (l) => coordinatorLog.push(l),
      });
      await worker.stop('finish');

      // 3 seeds × 2 defenses × (target + shadow), every one trained by the worker, none in this thread.
      expect(workerLog.filter((l) => /^trained\s/.test(l))).toHaveLength(12);
      expect(coordinatorLog.filter((l) => /queue: \d+ unit\(s\) enqueued/.test(l))).toHaveLength(3);
      // The three seeds' runs were all waiting on the queue before the first finished (queued together).
      const firstWait = coordinatorLog.findIndex((l) => l.includes('queue: waiting for'));
      const waits = coordinatorLog.filter((l) => l.includes('queue: waiting for')).length;
      expect(waits).toBe(3);
      expect(coordinatorLog.slice(firstWait, firstWait + 6).filter((l) => l.includes('queue: waiting for'))).toHaveLength(3);
      expect((await shared.list()).filter((e) => e.meta.kind === 'trained-model')).toHaveLength(12);

      const [a, b] = [local.results!, queued.results!];
      expect(b.trainingSeeds).toEqual([3, 4, 5]);
      for (const [i, row] of a.rows.entries()) {
        expect(b.rows[i]!.seeds!.map((s) => s.testAccuracy)).toEqual(row.seeds!.map((s) => s.testAccuracy));
        expect(b.rows[i]!.seeds!.map((s) => s.attacks['loss']!.auc)).toEqual(row.seeds!.map((s) => s.attacks['loss']!.auc));
      }
    }, 300_000);
  },
);
