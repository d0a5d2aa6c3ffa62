import { loadExperimentConfig } from '../config/load-config';
import { defaultModelStore } from '../store/model-store';
import { queueTrainer, enqueueSweep } from './queue-sweep';
import { parseQueueUrl } from './queue-url';
import { startQueueWorker } from './queue-worker';
import { connectRedis } from './redis-connection';
import { parseWorkerOptions, type WorkerCommandOptions } from './worker-options';
import type { UnitPlacement } from '../place/placement';

type Log = ((line: string) => void) | undefined;

/**
 * `mia sweep <config> --queue <url> [--no-follow]`: checks the URL and Redis first, then either runs
 * the sweep with the units trained by queue workers (`run`, given the queue's placement) or only
 * enqueues them.
 * @param run - runs the experiment and writes the report (the CLI's `runCommand`).
 */
export async function sweepQueueCommand(
  configPath: string,
  opts: { queue: string; follow?: boolean; dataDir?: string },
  log: Log,
  run: (placement: UnitPlacement) => Promise<void>,
): Promise<void> {
  const address = parseQueueUrl(opts.queue);
  const connection = await connectRedis(address, { context: 'sweep' });
  try {
    if (opts.follow !== false) {
      await run(queueTrainer(connection, log ? { onLog: log } : {}));
      return;
    }
    const config = await loadExperimentConfig(configPath);
    await enqueueSweep(config, connection, defaultModelStore(), { onLog: log, dataDir: opts.dataDir });
    process.stdout.write(`enqueued on ${address.url}; collect the results with \`mia sweep ${configPath} --queue ${address.url} --follow\`\n`);
  } finally {
    connection.disconnect();
  }
}

/**
 * `mia reproduce <name> --queue <url>`: checks the URL and Redis first, then runs `use` with a
 * placement that enqueues each run's missing units and waits for queue workers to put them in
 * the store (the same jobs, cache keys, resume and kill-safety as `mia sweep --queue`).
 * @param context - the command, for connection errors.
 */
export async function withQueueTrainer<T>(url: string, context: 'reproduce' | 'sweep', log: Log, use: (placement: UnitPlacement) => Promise<T>): Promise<T> {
  const address = parseQueueUrl(url);
  const connection = await connectRedis(address, { context });
  try {
    return await use(queueTrainer(connection, log ? { onLog: log } : {}));
  } finally {
    connection.disconnect();
  }
}

/** How long a stopping worker may take before it exits regardless (the queue re-runs what it held). */
const STOP_DEADLINE_MS = 1500;

/**
 * `mia worker --queue <url> --artifacts <dir>`: trains queued units until stopped. A SIGTERM (or
 * Ctrl-C) puts the running unit(s) back in the queue and exits within 2 s, as a CI runner or an
 * orchestrator expects; nothing finished is lost (units are cached as they finish, and the queue
 * hands a released unit to another worker). With `drain` (`--drain`), the first signal instead
 * finishes the running unit(s) and then exits; a second one releases them.
 */
export async function workerCommand(opts: WorkerCommandOptions & { readonly drain?: boolean }, log: (line: string) => void): Promise<void> {
  const { address, ...options } = parseWorkerOptions(opts);
  const connection = await connectRedis(address, { context: 'worker' });
  const handle = startQueueWorker(connection, { ...options, onLog: log, dataDir: opts.dataDir });
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signals += 1;
    const finish = opts.drain === true && signals === 1;
    if (finish) log(`${signal}: finishing the running unit(s), then exiting (send it again to put them back in the queue now)`);
    else {
      log(`${signal}: putting the running unit(s) back in the queue and exiting`);
      // The queue's lock on a released job lapses on its own; do not wait past the deadline for Redis.
      setTimeout(() => {
        log(`worker stopped (${signal}; the queue re-runs what it held)`);
        process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGHUP' ? 1 : 15));
      }, STOP_DEADLINE_MS).unref();
    }
    void handle.stop(finish ? 'finish' : 'release');
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  process.on('SIGHUP', onSignal);
  await handle.closed;
  connection.disconnect();
  log('worker stopped');
}
