import { Worker } from 'node:worker_threads';
import { AbortError } from '@mia/core';
import { activeBackend, threadsPerWorker } from './backend-choice';
import type { ExperimentConfig } from '../config/schema';
import type { TrainUnitSpec } from './train-unit';

/** Options of {@link trainUnitsInWorkers}. */
export interface WorkerPoolOptions {
  /** Number of worker threads (each with its own tfjs backend). */
  readonly workers: number;
  /** Root of the shared {@link DirectoryArtifactStore} the workers write into. */
  readonly storeRoot: string;
  readonly dataDir?: string;
  readonly onLog?: (line: string) => void;
  readonly signal?: AbortSignal;
}

/** Messages from a worker. */
export type WorkerMessage = { type: 'ready' } | { type: 'log'; line: string } | { type: 'done'; unit: TrainUnitSpec } | { type: 'error'; message: string };

function workerEntry(): { url: URL; execArgv: string[] } {
  // From sources (tests, `pnpm mia`) the worker is TypeScript and needs the tsx loader and our
  // source condition; from the published build it is plain JavaScript.
  const fromSource = import.meta.url.endsWith('.ts');
  return fromSource
    ? { url: new URL('./train-worker-source.mjs', import.meta.url), execArgv: ['--conditions=@mia/source'] }
    : { url: new URL('./train-worker.js', import.meta.url), execArgv: [] };
}

/**
 * Trains independent units (targets, shadows, reference models) in a pool of `worker_threads`, each thread with
 * its own tfjs backend and data copy, writing into the shared content-addressed store. A unit that
 * finished is in the store even if the pool is stopped later (atomic writes), so a rerun resumes.
 * @returns when every unit is trained; rejects on the first failure (other workers are stopped).
 */
export async function trainUnitsInWorkers(config: ExperimentConfig, units: readonly TrainUnitSpec[], options: WorkerPoolOptions): Promise<void> {
  if (units.length === 0) return;
  const queue = [...units];
  const { url, execArgv } = workerEntry();
  const size = Math.min(options.workers, units.length);
  const pool: Worker[] = [];
  await new Promise<void>((resolve, reject) => {
    let finished = 0;
    let failed = false;
    const stopAll = (error: Error) => {
      if (failed) return;
      failed = true;
      for (const w of pool) void w.terminate();
      reject(error);
    };
    options.signal?.addEventListener('abort', () => stopAll(new AbortError('trainUnitsInWorkers: aborted; finished models are kept in the cache')), {
      once: true,
    });
    const retired = new Set<Worker>();
    const feed = (worker: Worker) => {
      const unit = queue.shift();
      if (unit === undefined) {
        retired.add(worker); // terminate() exits with code 1: not a crash
        void worker.terminate();
        return;
      }
      worker.postMessage(unit);
    };
    for (let i = 0; i < size; i++) {
      const worker = new Worker(url, {
        execArgv,
        stderr: true,
        workerData: { config, storeRoot: options.storeRoot, dataDir: options.dataDir, index: i, backend: activeBackend(), threads: threadsPerWorker(size) },
      });
      pool.push(worker);
      // Keep the end of the worker's stderr for the error message of a crash.
      let stderr = '';
      worker.stderr.on('data', (chunk: Buffer) => {
        stderr = (stderr + chunk.toString()).slice(-2000);
      });
      worker.on('message', (message: WorkerMessage) => {
        if (message.type === 'ready') feed(worker);
        else if (message.type === 'log') options.onLog?.(`[worker ${i}] ${message.line}`);
        else if (message.type === 'error') stopAll(new Error(`worker ${i}: ${message.message}`));
        else if (message.type === 'done') {
          finished += 1;
          if (finished === units.length) {
            for (const w of pool) {
              retired.add(w);
              void w.terminate();
            }
            resolve();
          } else feed(worker);
        }
      });
      worker.on('error', (error) => stopAll(error));
      worker.on('exit', (code) => {
        if (code !== 0 && !failed && !retired.has(worker) && finished < units.length)
          stopAll(new Error(`worker ${i} exited with code ${code}${stderr ? `: ${stderr.trim()}` : ''}`));
      });
    }
  });
}
