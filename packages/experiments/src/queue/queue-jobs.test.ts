import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DirectoryArtifactStore } from '../store/artifact-store';
import { expandGrid } from '../schema/run-schema';
import { parseExperimentConfig } from '../config/parse-config';
import { prepareData } from '../data/prepare-data';
import { packageVersions } from '../store/versions';
import { enqueueUnits } from './enqueue-units';
import { followUnits } from './follow-units';
import { QueueUnavailableError, UnitJobFailedError } from './queue-errors';
import { parseQueueUrl } from './queue-url';
import { startQueueWorker } from './queue-worker';
import { connectRedis } from './redis-connection';
import { hasRedisServer, startRedisServer } from './redis-test-server';
import { planRun } from '../plan/plan-run';
import { attackNeedsShadow } from '../attacks/registry';
import { UNIT_QUEUE_NAME, unitJobs, versionDifferences, type UnitJobData, type UnitJobResult } from './unit-job';

const dir = mkdtempSync(join(tmpdir(), 'mia-queue-jobs-'));
const cleanup: Array<() => unknown> = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
  rmSync(dir, { recursive: true, force: true });
});

const config = expandGrid(
  parseExperimentConfig({
    name: 'queue-jobs',
    scale: 'smoke',
    seed: 5,
    dataset: { name: 'purchaseLike', size: 1200 },
    partition: { preset: 'CCL4', maxPerRole: 100 },
    model: { name: 'mlp', options: { hidden: [32] } },
    training: { epochs: 40, batchSize: 16, lr: 0.1 },
    defenses: [{ name: 'ccl', label: 'plain', grid: { alpha: [0.25, 0.75] } }],
    attacks: ['loss'],
  }),
);

describe('connectRedis', () => {
  it('gives up with a clear error when the server accepts but never answers (no endless wait)', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as { port: number }).port;
    const error = await connectRedis(parseQueueUrl(`redis://127.0.0.1:${port}/3`), { timeoutMs: 300, context: 'sweep' }).catch((e: unknown) => e);
    silent.close();
    expect(QueueUnavailableError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(
      `sweep: cannot reach Redis at --queue redis://127.0.0.1:${port}/3 (no answer within 300 ms); is redis-server running there and reachable from this machine?`,
    );
  });
});

describe('versionDifferences', () => {
  it('lists each package whose version differs, with both versions', () => {
    // Hand-written: b differs, c only on the worker; a is equal.
    expect(versionDifferences({ a: '1', b: '2' }, { a: '1', b: '3', c: '4' })).toEqual([
      'b 2 (coordinator) ≠ 3 (worker)',
      'c absent (coordinator) ≠ 4 (worker)',
    ]);
    expect(versionDifferences({ a: '1' }, { a: '1' })).toEqual([]);
  });
});

describe.skipIf(!hasRedisServer())(
  `queue jobs on a real redis-server${hasRedisServer() ? '' : ' (SKIPPED: redis-server is not on PATH; apt-get install -y redis-server)'}`,
  () => {
    let connection: Redis;
    let queue: Queue<UnitJobData, UnitJobResult>;
    let jobs: UnitJobData[];
    beforeAll(async () => {
      await tf.setBackend('cpu');
      const redis = await startRedisServer();
      cleanup.push(redis.stop);
      connection = await connectRedis(parseQueueUrl(`${redis.url}/1`));
      cleanup.push(() => connection.disconnect());
      queue = new Queue(UNIT_QUEUE_NAME, { connection });
      cleanup.push(() => queue.close());
      const plan = planRun(config, await prepareData(config), attackNeedsShadow);
      jobs = unitJobs(plan, [plan.unit({ defenseIndex: 0, role: 'target' }), plan.unit({ defenseIndex: 1, role: 'target' })]);
    });

    it('the job id is the cache key: enqueuing twice adds nothing; a refused job fails once, untrained, and is requeued later', async () => {
      expect(jobs.map((j) => j.label)).toEqual(['plain alpha=0.25/target', 'plain alpha=0.75/target']);
      expect(await enqueueUnits(queue, jobs)).toEqual({ added: 2, alreadyQueued: 0, requeued: 0 });
      expect(await enqueueUnits(queue, jobs)).toEqual({ added: 0, alreadyQueued: 2, requeued: 0 });
      expect(await queue.getJobCounts('waiting')).toEqual({ waiting: 2 });
      await queue.obliterate({ force: true });

      // A coordinator with another @mia/core: the worker must refuse without training (and without retries).
      const other = { ...jobs[0]!, versions: { ...jobs[0]!.versions, '@mia/core': '0.0.0-other' } };
      await enqueueUnits(queue, [other]);
      const store = new DirectoryArtifactStore(join(dir, 'refused'));
      const logs: string[] = [];
      const worker = startQueueWorker(connection, { artifacts: store.root, onLog: (l) => logs.push(l) });
      const error = await followUnits(queue, [other], { store, pollMs: 50 }).catch((e: unknown) => e);
      await worker.stop('finish');
      expect(UnitJobFailedError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(
        /^sweep: unit plain alpha=0.25\/target \([0-9a-f]{12}\) failed after 1 attempt\(s\): worker .* refused the job: package versions differ from the coordinator's \(@mia\/core 0\.0\.0-other \(coordinator\) ≠ (\S+) \(worker\)\)/,
      );
      expect((error as Error).message).toContain(`≠ ${packageVersions()['@mia/core']} (worker)`);
      expect(await store.list()).toEqual([]);
      expect(logs.some((l) => l.startsWith('training'))).toBe(false);
      // The same unit from a coordinator with matching versions replaces the failed job.
      expect(await enqueueUnits(queue, [jobs[0]!])).toEqual({ added: 0, alreadyQueued: 0, requeued: 1 });
      expect((await queue.getJob(jobs[0]!.key))!.data.versions).toEqual(jobs[0]!.versions);
      await queue.obliterate({ force: true });
    });

    it('stop("finish") completes the running unit; stop("release") puts it back in the queue, nothing half-written', async () => {
      const store = new DirectoryArtifactStore(join(dir, 'shutdown'));
      const run = async (mode: 'finish' | 'release', job: UnitJobData) => {
        await enqueueUnits(queue, [job]);
        const logs: string[] = [];
        const worker = startQueueWorker(connection, { artifacts: store.root, onLog: (l) => logs.push(l) });
        while (!logs.some((l) => l.startsWith('training'))) await new Promise((r) => setTimeout(r, 20));
        await worker.stop(mode);
        return (await queue.getJob(job.key))!;
      };
      const finished = await run('finish', jobs[0]!);
      expect(await finished.getState()).toBe('completed');
      expect(finished.returnvalue.trained).toBe(true);
      expect((await store.read(jobs[0]!.key)) !== undefined).toBe(true);

      const released = await run('release', jobs[1]!);
      expect(await released.getState()).toBe('waiting');
      expect(released.attemptsMade).toBe(0);
      expect(await store.read(jobs[1]!.key)).toBeUndefined();
      expect(readdirSync(store.root).filter((f) => f.startsWith('.tmp'))).toEqual([]);
      await queue.obliterate({ force: true });
    });
  },
);
