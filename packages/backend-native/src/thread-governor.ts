import { BackendError } from '@mia/core';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/**
 * A reading of the machine's CPU time: seconds every core spent busy (user, nice, system, irq,
 * softirq, steal; `/proc/stat`'s first line) and seconds this process spent on the CPU (every thread).
 */
export interface CpuReading {
  /** Busy seconds of the whole machine since boot, summed over cores. */
  readonly machineBusy: number;
  /** CPU seconds of this process (user + system, every thread). */
  readonly ownCpu: number;
  /** Wall clock in seconds. */
  readonly wall: number;
}

/** Where the governor's readings come from (injected in tests). */
export type CpuReader = () => CpuReading | undefined;

/** Clock ticks per second of `/proc/stat` (USER_HZ: 100 on every Linux architecture Node runs on). */
const USER_HZ = 100;

/**
 * Parses `/proc/stat`'s aggregate `cpu` line into busy seconds (everything but idle and iowait).
 * @param text - the file's content.
 * @returns busy seconds summed over cores.
 * @throws Error naming the file and what it found when the first line is not an aggregate cpu line.
 */
export function parseProcStat(text: string): number {
  const line = text.slice(0, text.indexOf('\n') === -1 ? text.length : text.indexOf('\n'));
  const fields = line.trim().split(/\s+/);
  if (fields[0] !== 'cpu' || fields.length < 5)
    throw new Error(`/proc/stat: expected a first line "cpu <user> <nice> <system> <idle> …", got ${JSON.stringify(line.slice(0, 80))}`);
  const ticks = fields.slice(1, 9).map(Number);
  if (ticks.some((t) => !Number.isFinite(t) || t < 0))
    throw new Error(`/proc/stat: expected non-negative tick counts on the cpu line, got ${JSON.stringify(line.slice(0, 80))}`);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = ticks;
  return (user + nice + system + irq + softirq + steal) / USER_HZ;
}

/** Reads `/proc/stat` and this process's CPU time; undefined where there is no `/proc` (not Linux). */
export const procCpuReader: CpuReader = () => {
  let text: string;
  try {
    text = readFileSync('/proc/stat', 'latin1');
  } catch {
    return undefined;
  }
  const usage = process.cpuUsage();
  return { machineBusy: parseProcStat(text), ownCpu: (usage.user + usage.system) / 1e6, wall: performance.now() / 1e3 };
};

/**
 * The threads to use next: `max` minus the cores other processes kept busy over the last interval
 * (their busy share rounded down, counting a core from 0.7 of it), never fewer than one.
 * @param max - the most threads (the configured count).
 * @param cores - the machine's cores.
 * @param before - the reading at the start of the interval.
 * @param after - the reading at its end.
 */
export function threadsFor(max: number, cores: number, before: CpuReading, after: CpuReading): number {
  const wall = after.wall - before.wall;
  if (!(wall > 0)) return max;
  const others = (after.machineBusy - before.machineBusy - (after.ownCpu - before.ownCpu)) / wall;
  const busyCores = Math.max(0, Math.floor(others + 0.3));
  return Math.max(1, Math.min(max, cores - busyCores));
}

/**
 * Lowers the OpenMP threads of the native kernels while other processes keep cores busy, and raises
 * them back (up to the configured count) when those cores are free again; checked at most once per
 * `intervalMs` from the kernel calls of the thread that trains.
 *
 * Why: when another process holds one of the cores, the threads of each parallel region wait for the
 * one that is not running. The short spin the package sets (see `docs/decisions/0050-openmp-waiting.md`)
 * keeps that wait from costing CPU time; with as many threads as there are free cores nobody waits at
 * all: a SmallCNN step beside a 2-thread load took 341–382 ms against 472 ms with two threads.
 *
 * Opt-in (`adaptiveThreads: true`, or `MIA_ADAPTIVE_THREADS=1`) because the results of some kernels
 * (oneDNN's weight gradients of 1×1 convolutions, reductions split across threads) depend on the
 * thread count in the last bits: with the governor, a seeded training is bit-reproducible only on a
 * machine whose load does not change the thread count.
 */
export class ThreadGovernor {
  private last: CpuReading | undefined;
  private current: number;

  /**
   * @param max - the most threads (the configured count).
   * @param apply - sets the threads of the calling thread's kernels.
   * @param options - `cores` (default every core), `intervalMs` (default 1000), `reader` (default `/proc`).
   */
  constructor(
    readonly max: number,
    private readonly apply: (threads: number) => void,
    private readonly options: { cores?: number; intervalMs?: number; reader?: CpuReader } = {},
  ) {
    this.current = max;
  }

  /** Threads in use now. */
  get threads(): number {
    return this.current;
  }

  /**
   * Called before each kernel: re-decides the threads when `intervalMs` has passed since the last
   * reading. Costs one clock read otherwise.
   * @param nowMs - the clock in ms (for tests).
   */
  tick(nowMs: number = performance.now()): void {
    if (this.max <= 1) return;
    const last = this.last;
    if (last !== undefined && nowMs - last.wall * 1e3 < (this.options.intervalMs ?? 1000)) return;
    const reading = (this.options.reader ?? procCpuReader)();
    if (reading === undefined) {
      this.last = { machineBusy: 0, ownCpu: 0, wall: Infinity };
      return;
    }
    this.last = reading;
    if (last === undefined) return;
    const next = threadsFor(this.max, this.options.cores ?? availableParallelism(), last, reading);
    if (next !== this.current) {
      this.current = next;
      this.apply(next);
    }
  }
}

let active: ThreadGovernor | undefined;

/**
 * Installs the governor the kernels of this thread consult (undefined: fixed threads).
 * @internal
 */
export function setThreadGovernor(governor: ThreadGovernor | undefined): void {
  active = governor;
}

/**
 * The governor of this thread, if any.
 * @internal
 */
export function threadGovernor(): ThreadGovernor | undefined {
  return active;
}

/**
 * Whether the threads adapt to the machine's load: `requested` when given, else true when the
 * environment sets `MIA_ADAPTIVE_THREADS=1` (or `true`), else false.
 * @throws BackendError naming the variable when `MIA_ADAPTIVE_THREADS` is not 0, 1, true or false.
 */
export function resolveAdaptive(requested?: boolean, env: NodeJS.ProcessEnv = process.env): boolean {
  if (requested !== undefined) return requested;
  const v = env['MIA_ADAPTIVE_THREADS'];
  if (v === undefined || v === '') return false;
  if (v === '0' || v === 'false') return false;
  if (v === '1' || v === 'true') return true;
  throw new BackendError(`MIA_ADAPTIVE_THREADS must be 0, 1, true or false, got ${JSON.stringify(v)}`);
}
