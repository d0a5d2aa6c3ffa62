import { loadExperimentConfig } from '../config/load-config';
import { defaultModelStore } from '../store/model-store';
import { queueTrainer, enqueueSweep } from './queue-sweep';
import { parseQueueUrl } from './queue-url';
import { startQueueWorker } from './queue-worker';
import { connectRedis } from './redis-connection';
import { parseWorkerOptions, type WorkerCommandOptions } from './worker-options';
import type { TrainUnitsRequest } from '../run/runner';

type Log = ((line: string) => void) | undefined;

/**
 * `mia sweep <config> --queue <url> [--no-follow]`: checks the URL and Redis first, then either runs
 * the sweep with the units trained by queue workers (`run`, given the `trainUnits` hook) or only
 * enqueues them.
 * @param run - runs the experiment and writes the report (the CLI's `runCommand`).
 */
export async function sweepQueueCommand(
  configPath: string,
  opts: { queue: string; follow?: boolean; dataDir?: string },
  log: Log,
  run: (trainUnits: (r: TrainUnitsRequest) => Promise<void>) => Promise<void>,
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
 * `mia worker --queue <url> --artifacts <dir>`: trains queued units until stopped. The first SIGTERM
 * (or Ctrl-C) finishes the running unit(s) and exits; a second one puts them back in the queue and exits.
 */
export async function workerCommand(opts: WorkerCommandOptions, log: (line: string) => void): Promise<void> {
  const { address, ...options } = parseWorkerOptions(opts);
  const connection = await connectRedis(address, { context: 'worker' });
  const handle = startQueueWorker(connection, { ...options, onLog: log, dataDir: opts.dataDir });
  let signals = 0;
  const onSignal = (signal: string) => {
    signals += 1;
    if (signals === 1) log(`${signal}: finishing the running unit(s), then exiting (send it again to put them back in the queue now)`);
    else log(`${signal}: putting the running unit(s) back in the queue and exiting`);
    void handle.stop(signals === 1 ? 'finish' : 'release');
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  await handle.closed;
  connection.disconnect();
  log('worker stopped');
}
