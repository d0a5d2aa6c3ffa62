import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ArtifactStore } from '../store/artifact-store';
import type { ExperimentConfig } from '../schema/run-schema';
import { prepareData } from '../data/prepare-data';
import { checkedRunConfig } from '../config/run-config';
import type { TrainUnitsRequest, UnitPlacement } from '../place/placement';
import { missingUnits, planRun } from '../plan/plan-run';
import { attackNeedsShadow } from '../attacks/registry';
import { enqueueUnits, type EnqueueSummary } from './enqueue-units';
import { followUnits } from './follow-units';
import { UNIT_QUEUE_NAME, unitJobs, type UnitJobData, type UnitJobResult } from './unit-job';

/** Options of {@link queueTrainer} and {@link enqueueSweep}. */
export interface QueueSweepOptions {
  readonly onLog?: (line: string) => void;
  /** Tries per job for ordinary failures. @default 3 */
  readonly attempts?: number;
  /** Poll interval while following. @default 1000 */
  readonly pollMs?: number;
  readonly signal?: AbortSignal;
}

const summary = (s: EnqueueSummary, cached: number) =>
  `queue: ${s.added} unit(s) enqueued, ${s.alreadyQueued} already queued, ${s.requeued} requeued after an earlier failure, ${cached} already in the store`;

async function withQueue<T>(connection: Redis, use: (queue: Queue<UnitJobData, UnitJobResult>) => Promise<T>, onLog?: (line: string) => void): Promise<T> {
  const queue = new Queue<UnitJobData, UnitJobResult>(UNIT_QUEUE_NAME, { connection });
  // Connection errors while Redis is away: one line per distinct message (the client reconnects).
  let last = '';
  queue.on('error', (error) => {
    if (error.message !== last) onLog?.(`queue error: ${error.message}`);
    last = error.message;
  });
  try {
    return await use(queue);
  } finally {
    await queue.close();
  }
}

/**
 * The placement of {@link runExperiment} for `mia sweep --queue` and `mia reproduce --queue`: enqueues
 * the missing units (job id = cache key) and follows them until every one is in the store; the runner
 * then loads them from the cache and writes the same report as a local run.
 * @param connection - from {@link connectRedis}; not closed here.
 */
export function queueTrainer(connection: Redis, options: QueueSweepOptions = {}): UnitPlacement {
  return { where: () => 'on the queue', train: (request) => trainOnQueue(connection, request, options) };
}

async function trainOnQueue(connection: Redis, { plan, units, store }: TrainUnitsRequest, options: QueueSweepOptions): Promise<void> {
  {
    const all = plan.units.length;
    if (units.length === 0) {
      options.onLog?.(`queue: all ${all} units are in the store; nothing to enqueue`);
      return;
    }
    const jobs = unitJobs(plan, units);
    await withQueue(
      connection,
      async (queue) => {
        options.onLog?.(summary(await enqueueUnits(queue, jobs, { attempts: options.attempts }), all - units.length));
        options.onLog?.(`queue: waiting for ${jobs.length} unit(s); start workers with \`mia worker --queue <url> --artifacts <shared dir>\``);
        await followUnits(queue, jobs, { store, onLog: options.onLog, pollMs: options.pollMs, signal: options.signal });
      },
      options.onLog,
    );
  }
}

/**
 * Enqueues the missing units of a (grid) config without waiting (`mia sweep --queue … --no-follow`).
 * @returns the enqueue summary and how many units were already in the store.
 */
export async function enqueueSweep(
  input: ExperimentConfig,
  connection: Redis,
  store: ArtifactStore,
  options: QueueSweepOptions & { dataDir?: string } = {},
): Promise<EnqueueSummary & { cached: number }> {
  const config = await checkedRunConfig(input, { remote: true, source: 'sweep' });
  const data = await prepareData(config, { dataDir: options.dataDir });
  const plan = planRun(config, data, attackNeedsShadow);
  const missing = await missingUnits(plan, store);
  const cached = plan.units.length - missing.length;
  const result = await withQueue(connection, (queue) => enqueueUnits(queue, unitJobs(plan, missing), { attempts: options.attempts }), options.onLog);
  options.onLog?.(summary(result, cached));
  return { ...result, cached };
}
