import { Worker } from 'node:worker_threads';
import type { ExperimentConfig } from '../schema/run-schema';
import type { UnitSpec } from '../plan/plan-run';
import type { WorkerMessage } from '../place/worker-pool';

/** Options of {@link UnitThread}. */
export interface UnitThreadOptions {
  /** Root of the shared directory store the thread writes into. */
  readonly storeRoot: string;
  readonly dataDir?: string;
  /** Backend the thread uses (the one this process's `initBackend` chose). */
  readonly backend: string;
  /** Native threads of the thread (its share of the cores). */
  readonly threads?: number;
  readonly onLog?: (line: string) => void;
}

function threadEntry(): { url: URL; execArgv: string[] } {
  // Same entry as the in-process pool (train/worker-pool.ts): TypeScript + tsx from sources, JS when built.
  const fromSource = import.meta.url.endsWith('.ts');
  return fromSource
    ? { url: new URL('../place/train-worker-source.mjs', import.meta.url), execArgv: ['--conditions=@mia/source'] }
    : { url: new URL('./train-worker.js', import.meta.url), execArgv: [] };
}

/**
 * One long-lived training thread for one (grid-expanded) config: the pool's `train-worker` with its
 * own backend and data copy, reused for every unit of that config, so the main thread stays free to
 * renew BullMQ job locks while a unit trains.
 */
export class UnitThread {
  private readonly worker: Worker;
  private readonly ready: Promise<void>;
  private current: { resolve: () => void; reject: (e: Error) => void } | undefined;
  private stderr = '';
  private exited = false;

  constructor(
    readonly config: ExperimentConfig,
    options: UnitThreadOptions,
  ) {
    const { url, execArgv } = threadEntry();
    this.worker = new Worker(url, {
      execArgv,
      stderr: true,
      workerData: { config, storeRoot: options.storeRoot, dataDir: options.dataDir, index: 0, backend: options.backend, threads: options.threads },
    });
    this.worker.stderr.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-2000);
    });
    let markReady!: () => void;
    let failReady!: (e: Error) => void;
    this.ready = new Promise<void>((resolve, reject) => {
      markReady = resolve;
      failReady = reject;
    });
    this.ready.catch(() => undefined);
    this.worker.on('message', (m: WorkerMessage) => {
      if (m.type === 'ready') markReady();
      else if (m.type === 'log') options.onLog?.(m.line);
      else if (m.type === 'done') this.settle();
      else if (m.type === 'error') {
        failReady(new Error(m.message));
        this.settle(new Error(m.message));
      }
    });
    this.worker.on('error', (e) => {
      failReady(e);
      this.settle(e);
    });
    this.worker.on('exit', (code) => {
      this.exited = true;
      const e = new Error(`training thread exited with code ${code}${this.stderr ? `: ${this.stderr.trim()}` : ''}`);
      failReady(e);
      this.settle(e);
    });
  }

  /** Whether the thread died (it is then replaced). */
  get dead(): boolean {
    return this.exited;
  }

  private settle(error?: Error): void {
    const c = this.current;
    this.current = undefined;
    if (c === undefined) return;
    if (error === undefined) c.resolve();
    else c.reject(error);
  }

  /** Trains one unit of this thread's config into the store (a cache hit if it is there already). */
  async train(unit: UnitSpec): Promise<void> {
    try {
      await this.ready;
    } catch (error) {
      await this.terminate(); // a thread that failed to start (e.g. data missing) is replaced next time
      throw error;
    }
    if (this.current !== undefined) throw new Error('UnitThread.train: the thread is busy');
    return new Promise<void>((resolve, reject) => {
      this.current = { resolve, reject };
      this.worker.postMessage(unit);
    });
  }

  /** Stops the thread; a unit in progress is abandoned (nothing half-written: the store writes atomically). */
  async terminate(): Promise<void> {
    this.exited = true;
    await this.worker.terminate();
  }
}
