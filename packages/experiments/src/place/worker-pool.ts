import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { AbortError } from '@mia/core';
import { activeBackend, threadsPerWorker } from '../train/backend-choice';
import type { ExperimentConfig } from '../schema/run-schema';
import type { UnitSpec } from '../plan/plan-run';

/** Options of {@link trainUnitsInWorkers}. */
export interface WorkerPoolOptions {
  /** Number of worker threads (each with its own tfjs backend). */
  readonly workers: number;
  /** Root of the shared {@link DirectoryArtifactStore} the workers write into. */
  readonly storeRoot: string;
  readonly dataDir?: string;
  readonly onLog?: (line: string) => void;
  readonly signal?: AbortSignal;
  /**
   * What each pool member is: a `worker_threads` thread of this process, or a child process of its
   * own (its own address space: no page-fault or allocator lock shared with the other trainings).
   * @default `$MIA_WORKER_ISOLATION` when it is `thread` or `process`, else `thread`
   */
  readonly isolation?: WorkerIsolation;
  /**
   * Slots shared with other calls (of size `workers`): this call starts at most `workers` members,
   * each only when it holds a slot. Without it, `min(workers, units)` members start at once.
   */
  readonly slots?: Pick<WorkerSlots, 'acquire'>;
}

/** Pool members as threads of this process or as child processes. */
export type WorkerIsolation = 'thread' | 'process';

/** The isolation `trainUnitsInWorkers` uses: the option, else `$MIA_WORKER_ISOLATION`, else threads. */
export function workerIsolation(option?: WorkerIsolation, env: NodeJS.ProcessEnv = process.env): WorkerIsolation {
  if (option !== undefined) return option;
  const fromEnv = env['MIA_WORKER_ISOLATION'];
  if (fromEnv === undefined || fromEnv === '') return 'thread';
  if (fromEnv === 'thread' || fromEnv === 'process') return fromEnv;
  throw new Error(`MIA_WORKER_ISOLATION must be "thread" or "process", got ${JSON.stringify(fromEnv)}`);
}

/** Messages from a worker. */
export type WorkerMessage = { type: 'ready' } | { type: 'log'; line: string } | { type: 'done'; unit: UnitSpec } | { type: 'error'; message: string };

function workerEntry(): { url: URL; execArgv: string[] } {
  // From sources (tests, `pnpm mia`) the worker is TypeScript and needs the tsx loader and our
  // source condition; from the published build it is plain JavaScript.
  const fromSource = import.meta.url.endsWith('.ts');
  return fromSource
    ? { url: new URL('./train-worker-source.mjs', import.meta.url), execArgv: ['--conditions=@mia/source'] }
    : { url: new URL('./train-worker.js', import.meta.url), execArgv: [] };
}

/**
 * Trains independent units (targets, shadows, reference models) in a pool of `worker_threads` (or
 * child processes, {@link WorkerPoolOptions.isolation}), each with its own tfjs backend and data
 * copy, writing into the shared content-addressed store. A unit that finished is in the store even
 * if the pool is stopped later (atomic writes), so a rerun resumes. With `slots` shared by several
 * calls (a reproduction's runs), each member first takes a slot and gives it back as soon as its
 * call has no unit left for it, so another call's units start on the freed core at once.
 * @returns when every unit is trained; rejects on the first failure (other workers are stopped).
 */
export async function trainUnitsInWorkers(config: ExperimentConfig, units: readonly UnitSpec[], options: WorkerPoolOptions): Promise<void> {
  if (units.length === 0) return;
  const queue = [...units];
  const { url, execArgv } = workerEntry();
  const size = Math.min(options.workers, units.length);
  const isolation = workerIsolation(options.isolation);
  const slots = options.slots;
  // Native threads per member: the cores divided among every member that can run at once.
  const threads = threadsPerWorker(slots === undefined ? size : options.workers);
  const pool: PoolMember[] = [];
  await new Promise<void>((resolve, reject) => {
    let finished = 0;
    let failed = false;
    const releases = new Map<number, () => void>();
    const release = (i: number) => {
      releases.get(i)?.();
      releases.delete(i);
    };
    const stopAll = (error: Error) => {
      if (failed) return;
      failed = true;
      for (const w of pool) w.terminate();
      for (const i of [...releases.keys()]) release(i);
      reject(error);
    };
    options.signal?.addEventListener('abort', () => stopAll(new AbortError('trainUnitsInWorkers: aborted; finished models are kept in the cache')), {
      once: true,
    });
    const retired = new Set<PoolMember>();
    const retire = (worker: PoolMember, i: number) => {
      retired.add(worker); // a terminated thread exits with code 1: not a crash
      worker.terminate();
      release(i);
    };
    const feed = (worker: PoolMember, i: number) => {
      const unit = queue.shift();
      if (unit === undefined) return retire(worker, i);
      try {
        worker.send(unit);
      } catch (error) {
        // A unit that cannot be sent (not plain data) fails the pool with the reason instead of leaving it waiting.
        stopAll(error instanceof Error ? error : new Error(String(error)));
      }
    };
    const start = (i: number) => {
      const data: WorkerData = { config, storeRoot: options.storeRoot, dataDir: options.dataDir, index: i, backend: activeBackend(), threads };
      const worker = isolation === 'process' ? processMember(url, execArgv, data) : threadMember(url, execArgv, data);
      pool.push(worker);
      // Keep the end of the worker's stderr for the error message of a crash.
      let stderr = '';
      worker.stderr?.on('data', (chunk: Buffer) => {
        stderr = (stderr + chunk.toString()).slice(-2000);
      });
      worker.onMessage((message: WorkerMessage) => {
        if (message.type === 'ready') feed(worker, i);
        else if (message.type === 'log') options.onLog?.(`[worker ${i}] ${message.line}`);
        else if (message.type === 'error') stopAll(new Error(`worker ${i}: ${message.message}`));
        else if (message.type === 'done') {
          finished += 1;
          if (finished === units.length) {
            for (const [j, w] of pool.entries()) if (!retired.has(w)) retire(w, j);
            resolve();
          } else feed(worker, i);
        }
      });
      worker.onError((error) => stopAll(error));
      worker.onExit((code, signal) => {
        if (code !== 0 && !failed && !retired.has(worker) && finished < units.length)
          stopAll(new Error(`worker ${i} exited with ${code === null ? `signal ${signal}` : `code ${code}`}${stderr ? `: ${stderr.trim()}` : ''}`));
      });
    };
    for (let i = 0; i < size; i++) {
      if (slots === undefined) {
        start(i);
        continue;
      }
      // Members are numbered in the order they start, so `[worker i]` in the log and `pool[i]` agree.
      void slots.acquire().then((free) => {
        // Nothing left to train (the members already started took every unit), or stopped: give the slot back.
        if (failed || queue.length === 0) return free();
        const index = pool.length;
        releases.set(index, free);
        start(index);
      }, stopAll);
    }
  });
}

/**
 * A counting semaphore of pool slots (one per core's share), shared by several
 * {@link trainUnitsInWorkers} calls; waiters are served first come, first served.
 */
export class WorkerSlots {
  private free: number;
  private readonly waiting: Array<(release: () => void) => void> = [];

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`WorkerSlots: size must be a positive integer, got ${size}`);
    this.free = size;
  }

  /** Resolves with this slot's release function once a slot is free. */
  acquire(): Promise<() => void> {
    return new Promise((resolve) => {
      if (this.free > 0) {
        this.free -= 1;
        resolve(this.releaser());
      } else this.waiting.push(resolve);
    });
  }

  /** Slots not held right now. */
  get available(): number {
    return this.free;
  }

  private releaser(): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = this.waiting.shift();
      if (next !== undefined) next(this.releaser());
      else this.free += 1;
    };
  }
}

/** What a pool member is started with (the thread's `workerData`, a process's first message). */
export interface WorkerData {
  readonly config: ExperimentConfig;
  readonly storeRoot: string;
  readonly dataDir?: string;
  readonly index: number;
  readonly backend?: string;
  readonly threads?: number;
}

/** One training of the pool, a thread or a child process, behind the same few calls. */
interface PoolMember {
  readonly stderr: NodeJS.ReadableStream | null;
  send(unit: UnitSpec): void;
  onMessage(handler: (message: WorkerMessage) => void): void;
  onError(handler: (error: Error) => void): void;
  onExit(handler: (code: number | null, signal?: string | null) => void): void;
  terminate(): void;
}

function threadMember(url: URL, execArgv: string[], workerData: WorkerData): PoolMember {
  const worker = new Worker(url, { execArgv, stderr: true, workerData });
  return {
    stderr: worker.stderr,
    send: (unit) => worker.postMessage(unit),
    onMessage: (h) => worker.on('message', h),
    onError: (h) => worker.on('error', h),
    onExit: (h) => worker.on('exit', h),
    terminate: () => void worker.terminate(),
  };
}

/** A child process running the same worker script; its `workerData` is the first IPC message. */
function processMember(url: URL, execArgv: string[], workerData: WorkerData): PoolMember {
  const child: ChildProcess = fork(fileURLToPath(url), [], {
    execArgv: [...process.execArgv.filter((a) => a.startsWith('--max-old-space-size')), ...execArgv],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  });
  child.send({ type: 'init', workerData });
  return {
    stderr: child.stderr,
    send: (unit) => child.send({ type: 'unit', unit }),
    onMessage: (h) => child.on('message', (m) => h(m as WorkerMessage)),
    onError: (h) => child.on('error', h),
    onExit: (h) => child.on('exit', (code, signal) => h(code, signal)),
    terminate: () => void child.kill('SIGTERM'),
  };
}
