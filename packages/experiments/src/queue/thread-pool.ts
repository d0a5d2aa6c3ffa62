import type { ExperimentConfig } from '../schema/run-schema';
import { contentHash } from '../store/canonical-hash';
import { UnitThread, type UnitThreadOptions } from './unit-thread';

/**
 * Up to `size` {@link UnitThread}s, reused for jobs of the same config (a sweep's jobs share one),
 * replaced when a job of another config comes or a thread died.
 */
export class ThreadPool {
  private readonly idle: Array<{ hash: string; thread: UnitThread }> = [];
  private readonly busy = new Set<UnitThread>();

  constructor(
    private readonly size: number,
    private readonly options: UnitThreadOptions,
  ) {}

  /** A thread for `config`, reusing an idle one of the same config. */
  async acquire(config: ExperimentConfig): Promise<UnitThread> {
    const hash = contentHash(config);
    let i = this.idle.findIndex((t) => t.hash === hash && !t.thread.dead);
    let thread: UnitThread;
    if (i >= 0) thread = this.idle.splice(i, 1)[0]!.thread;
    else {
      // Make room: drop dead threads and, if still full, the oldest idle thread of another config.
      while ((i = this.idle.findIndex((t) => t.thread.dead)) >= 0) this.idle.splice(i, 1);
      if (this.idle.length + this.busy.size >= this.size) await this.idle.shift()?.thread.terminate();
      thread = new UnitThread(config, this.options);
    }
    this.busy.add(thread);
    return thread;
  }

  /** Gives a thread back after a job (a dead one is dropped). */
  release(thread: UnitThread): void {
    this.busy.delete(thread);
    if (!thread.dead) this.idle.push({ hash: contentHash(thread.config), thread });
  }

  /** Terminates the threads training right now (their jobs are then released by the caller). */
  async terminateBusy(): Promise<void> {
    await Promise.all([...this.busy].map((t) => t.terminate()));
  }

  /** Terminates every thread. */
  async close(): Promise<void> {
    await this.terminateBusy();
    await Promise.all(this.idle.splice(0).map((t) => t.thread.terminate()));
  }
}
