import type { Queue } from 'bullmq';
import { AbortError } from '@mia/core';
import type { ArtifactStore } from '../store/artifact-store';
import { enqueueUnits } from './enqueue-units';
import { UnitJobFailedError } from './queue-errors';
import type { UnitJobData, UnitJobResult } from './unit-job';

/** Options of {@link followUnits}. */
export interface FollowUnitsOptions {
  /** Where the workers write (the same shared store the runner reads). */
  readonly store: ArtifactStore;
  /** One line per finished unit with the overall count. */
  readonly onLog?: (line: string) => void;
  /** How often the pending jobs are polled. @default 1000 */
  readonly pollMs?: number;
  /** How long a completed unit may stay invisible in the store (shared file systems cache metadata). @default 30000 */
  readonly visibilityGraceMs?: number;
  readonly signal?: AbortSignal;
  /** Times a unit whose job vanished (Redis restarted without persistence) is enqueued again. @default 3 */
  readonly maxRequeues?: number;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        resolve();
      },
      { once: true },
    );
  });

/**
 * Waits until every job is completed and its unit is readable from the store, printing a progress
 * line per finished unit (`[done/total] label trained on host:pid (backend) in s`).
 * A unit whose job vanished before its model was stored (Redis lost its data) is enqueued again.
 * @throws UnitJobFailedError when a job failed for good (the worker's reason is in the message), when
 *   its job keeps vanishing, or when a completed unit does not show up in the store.
 */
export async function followUnits(queue: Queue<UnitJobData, UnitJobResult>, jobs: readonly UnitJobData[], options: FollowUnitsOptions): Promise<void> {
  const pending = new Map(jobs.map((j) => [j.key, j]));
  const invisibleSince = new Map<string, number>();
  const total = jobs.length;
  const grace = options.visibilityGraceMs ?? 30_000;
  const requeues = new Map<string, number>();
  while (pending.size > 0) {
    if (options.signal?.aborted === true) throw new AbortError('followUnits: aborted; queued jobs keep running on the workers, follow again to collect them');
    for (const [key, data] of pending) {
      const job = await queue.getJob(key);
      const state = job === undefined ? 'unknown' : await job.getState();
      if (state === 'failed') {
        throw new UnitJobFailedError(`sweep: unit ${data.label} (${key.slice(0, 12)}) failed after ${job!.attemptsMade} attempt(s): ${job!.failedReason}`);
      }
      if (state !== 'completed' && state !== 'unknown') continue;
      if ((await options.store.read(key)) === undefined) {
        if (state === 'unknown') {
          const n = (requeues.get(key) ?? 0) + 1;
          if (n > (options.maxRequeues ?? 3))
            throw new UnitJobFailedError(
              `sweep: the job of unit ${data.label} (${key.slice(0, 12)}) vanished from the queue ${n} times before its model was stored; is something emptying the queue?`,
            );
          requeues.set(key, n);
          await enqueueUnits(queue, [data]);
          options.onLog?.(`requeued ${data.label}: its job vanished from the queue before the model was stored (Redis restarted without persistence?)`);
          continue;
        }
        const since = invisibleSince.get(key) ?? Date.now();
        invisibleSince.set(key, since);
        if (Date.now() - since < grace) continue;
        const worker = job?.returnvalue?.worker ?? '?';
        throw new UnitJobFailedError(
          `sweep: unit ${data.label} (${key.slice(0, 12)}) completed on worker ${worker} but is not in this machine's artifact store after ${grace / 1000} s: do the workers' --artifacts and this machine's cache (--cache-dir <dir>/models) point at the same shared directory?`,
        );
      }
      pending.delete(key);
      const r = job?.returnvalue;
      const how =
        r === undefined || r === null
          ? 'found in the store'
          : r.trained
            ? `trained on ${r.worker} (${r.backend}) in ${r.seconds.toFixed(1)} s`
            : `already stored (reported by ${r.worker})`;
      options.onLog?.(`[${total - pending.size}/${total}] ${data.label} ${how}`);
    }
    if (pending.size > 0) await sleep(options.pollMs ?? 1000, options.signal);
  }
}
