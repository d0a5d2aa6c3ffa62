import type { Queue } from 'bullmq';
import type { UnitJobData, UnitJobResult } from './unit-job';

/** Options of {@link enqueueUnits}. */
export interface EnqueueUnitsOptions {
  /** Tries per job for ordinary failures (a crashed or stalled worker is recovered separately). @default 3 */
  readonly attempts?: number;
}

/** What {@link enqueueUnits} did. */
export interface EnqueueSummary {
  /** New jobs. */
  readonly added: number;
  /** Jobs already waiting, delayed or running (enqueued earlier, e.g. by a coordinator that crashed). */
  readonly alreadyQueued: number;
  /** Jobs that had failed or completed earlier (but the unit is not in the store) and were queued again. */
  readonly requeued: number;
}

/**
 * Enqueues one job per unit with the cache key as the job id, so enqueuing twice (or after a
 * crash) never duplicates work. Pass only units missing from the store.
 * @returns how many jobs were added, already queued, or requeued after an earlier failure.
 */
export async function enqueueUnits(
  queue: Queue<UnitJobData, UnitJobResult>,
  jobs: readonly UnitJobData[],
  options: EnqueueUnitsOptions = {},
): Promise<EnqueueSummary> {
  const attempts = options.attempts ?? 3;
  if (!Number.isInteger(attempts) || attempts < 1) throw new RangeError(`enqueueUnits: options.attempts must be a positive integer, got ${attempts}`);
  let added = 0;
  let alreadyQueued = 0;
  let requeued = 0;
  for (const data of jobs) {
    const existing = await queue.getJob(data.key);
    if (existing !== undefined) {
      const state = await existing.getState();
      if (state !== 'failed' && state !== 'completed' && state !== 'unknown') {
        alreadyQueued += 1;
        continue;
      }
      // A finished job id blocks a new job with the same id: remove it so the unit is trained again.
      await existing.remove();
      requeued += 1;
    } else added += 1;
    await queue.add('train', data, {
      jobId: data.key,
      attempts,
      backoff: { type: 'exponential', delay: 5000 },
      removeOnComplete: { age: 7 * 24 * 3600 },
      removeOnFail: { age: 7 * 24 * 3600 },
    });
  }
  return { added, alreadyQueued, requeued };
}
