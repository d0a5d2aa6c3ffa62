import { UnrecoverableError, WaitingError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { activeBackend, threadsPerWorker } from '../train/backend-choice';
import { DirectoryArtifactStore } from '../store/artifact-store';
import { packageVersions } from '../store/versions';
import { ThreadPool } from './thread-pool';
import { UNIT_QUEUE_NAME, processId, versionDifferences, type UnitJobData, type UnitJobResult } from './unit-job';

/** Options of {@link startQueueWorker}. */
export interface QueueWorkerOptions {
  /** Root of the shared artifact directory (`--artifacts`), the same the coordinator's cache uses. */
  readonly artifacts: string;
  /** Units trained at once, each in its own thread. @default 1 */
  readonly concurrency?: number;
  readonly dataDir?: string;
  readonly onLog?: (line: string) => void;
  /** How long a job's lock lasts without renewal; a worker that died is noticed after about this long. @default 30000 */
  readonly lockDurationMs?: number;
  /** How often this worker looks for jobs of dead workers. @default 30000 */
  readonly stalledIntervalMs?: number;
}

/** A running queue worker. */
export interface QueueWorkerHandle {
  /** `finish`: take no new job, finish the running ones; `release`: stop them now and put their jobs back in the queue. */
  stop(mode: 'finish' | 'release'): Promise<void>;
  /** Resolves when the worker stopped. */
  readonly closed: Promise<void>;
}

/**
 * Pulls training units from the queue and trains them in threads into the shared store
 * (`mia worker`). Refuses (fails without retry) a job whose package versions differ from this
 * worker's, since they are part of the cache key.
 * @param connection - from {@link connectRedis}; not closed by the worker.
 */
export function startQueueWorker(connection: Redis, options: QueueWorkerOptions): QueueWorkerHandle {
  const concurrency = options.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`startQueueWorker: concurrency must be a positive integer, got ${concurrency}`);
  const id = processId();
  const log = (line: string) => options.onLog?.(line);
  const store = new DirectoryArtifactStore(options.artifacts);
  const local = packageVersions();
  const pool = new ThreadPool(concurrency, {
    storeRoot: options.artifacts,
    backend: activeBackend(),
    threads: threadsPerWorker(concurrency),
    onLog: log,
    dataDir: options.dataDir,
  });
  let releasing = false;

  const processor = async (job: Job<UnitJobData, UnitJobResult>, token?: string): Promise<UnitJobResult> => {
    const data = job.data;
    const name = `${data.label ?? job.id} (${String(job.id).slice(0, 12)})`;
    if (data.format !== 'mia-unit-job-1')
      throw new UnrecoverableError(
        `worker ${id}: job ${name} has format ${JSON.stringify(data.format)}, expected "mia-unit-job-1" (enqueued by another @mia/experiments version)`,
      );
    const diff = versionDifferences(data.versions ?? {}, local);
    if (diff.length > 0) {
      log(`refused    ${name}: package versions differ from the coordinator's`);
      throw new UnrecoverableError(
        `worker ${id} refused the job: package versions differ from the coordinator's (${diff.join('; ')}); cache keys include versions, so install the same versions on every worker and the coordinator`,
      );
    }
    if ((await store.read(data.key)) !== undefined) return { worker: id, backend: activeBackend(), seconds: 0, trained: false };
    const started = Date.now();
    const thread = await pool.acquire(data.config);
    try {
      await thread.train(data.unit);
    } catch (error) {
      if (releasing && token !== undefined) {
        await job.moveToWait(token);
        log(`released   ${name} back to the queue`);
        throw new WaitingError();
      }
      throw error;
    } finally {
      pool.release(thread);
    }
    if ((await store.read(data.key)) === undefined) {
      throw new UnrecoverableError(
        `worker ${id}: trained ${name} but found no entry under the job's key in ${options.artifacts}: this machine computes another cache key (different dataset files under --data-dir?)`,
      );
    }
    return { worker: id, backend: activeBackend(), seconds: (Date.now() - started) / 1000, trained: true };
  };

  const worker = new Worker<UnitJobData, UnitJobResult>(UNIT_QUEUE_NAME, processor, {
    connection,
    concurrency,
    lockDuration: options.lockDurationMs ?? 30_000,
    stalledInterval: options.stalledIntervalMs ?? 30_000,
    maxStalledCount: 2,
    autorun: true,
  });
  worker.on('failed', (job, error) => {
    if (job !== undefined && !(error instanceof WaitingError)) log(`failed     ${job.data.label ?? job.id}: ${error.message}`);
  });
  let lastError = '';
  worker.on('error', (error) => {
    if (error.message !== lastError) log(`queue error: ${error.message}`);
    lastError = error.message;
  });
  log(`worker ${id} waiting for jobs on queue ${UNIT_QUEUE_NAME} (concurrency ${concurrency}, backend ${activeBackend()}, artifacts ${options.artifacts})`);

  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  let closing: Promise<void> | undefined;
  return {
    closed,
    async stop(mode) {
      if (mode === 'release') {
        releasing = true;
        await pool.terminateBusy();
      }
      closing ??= worker
        .close()
        .then(() => pool.close())
        .then(resolveClosed);
      await closing;
    },
  };
}
