import { resolve } from 'node:path';
import { InvalidArgumentError } from '@mia/core';
import { parseQueueUrl } from './queue-url';

function positiveInteger(command: string, option: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`${command}: ${option} must be a positive integer, got ${JSON.stringify(value)}`);
  return n;
}

/** Options of `mia worker`. */
export interface WorkerCommandOptions {
  readonly queue: string;
  readonly artifacts: string;
  readonly concurrency?: string;
  readonly dataDir?: string;
  readonly lockDuration?: string;
  readonly stalledInterval?: string;
}

/** Validates the options of `mia worker` before the backend is loaded. */
export function parseWorkerOptions(opts: WorkerCommandOptions) {
  const address = parseQueueUrl(opts.queue);
  if (typeof opts.artifacts !== 'string' || opts.artifacts === '')
    throw new InvalidArgumentError(`worker: --artifacts must be the shared artifact directory, got ${JSON.stringify(opts.artifacts)}`);
  return {
    address,
    artifacts: resolve(opts.artifacts),
    concurrency: positiveInteger('worker', '--concurrency', opts.concurrency, 1),
    lockDurationMs: positiveInteger('worker', '--lock-duration', opts.lockDuration, 30_000),
    stalledIntervalMs: positiveInteger('worker', '--stalled-interval', opts.stalledInterval, 30_000),
  };
}
