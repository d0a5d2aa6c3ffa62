import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { initBackend } from '@mia/core';
import { asBackendName, backendLoaders } from '../train/backend-choice';
import { DirectoryArtifactStore } from '../store/artifact-store';
import { importDefenseModules } from '../defenses/registry';
import type { ExperimentConfig } from '../schema/run-schema';
import { prepareData } from '../data/prepare-data';
import { trainUnit } from '../train/train-unit';
import { planRun, type UnitSpec } from '../plan/plan-run';
import { attackNeedsShadow } from '../attacks/registry';
import type { WorkerData, WorkerMessage } from './worker-pool';

// One member of the training pool, a worker thread or a child process (worker-pool.ts): its own
// backend and data copy; trains the units it is sent and writes them into the shared store.
const channel = parentPort !== null ? threadChannel(parentPort) : processChannel();
const { config, storeRoot, dataDir, backend, threads } = await channel.workerData;
const post = channel.post;

try {
  // The same backend as the main thread, so a pooled run gives the same numbers as an in-thread one;
  // native kernels get this worker's share of the cores.
  const name = asBackendName(backend);
  await initBackend({ loaders: backendLoaders, ...(name === undefined ? {} : { prefer: [name] }), ...(threads === undefined ? {} : { threads }) });
  // User defenses: the modules that register them (the coordinator listed them in the config).
  await importDefenseModules(config.modules);
  const data = await prepareData(config, { dataDir });
  const store = new DirectoryArtifactStore(storeRoot);
  // The same plan as the coordinator's (same config, data, versions and backend): units come by spec.
  const plan = planRun(config, data, attackNeedsShadow);
  channel.onUnit((unit: UnitSpec) => {
    trainUnit(plan.unit(unit), { config, data, store }, { onLog: (line) => post({ type: 'log', line }) })
      .then(() => post({ type: 'done', unit }))
      .catch((error: unknown) => post({ type: 'error', message: error instanceof Error ? error.message : String(error) }));
  });
  post({ type: 'ready' });
} catch (error) {
  post({ type: 'error', message: error instanceof Error ? error.message : String(error) });
}

interface Channel {
  readonly workerData: Promise<WorkerData>;
  post(message: WorkerMessage): void;
  onUnit(handler: (unit: UnitSpec) => void): void;
}

function threadChannel(port: MessagePort): Channel {
  return {
    workerData: Promise.resolve(workerData as WorkerData),
    post: (m) => port.postMessage(m),
    onUnit: (h) => port.on('message', h),
  };
}

/** A child process's IPC: `{ type: 'init', workerData }` first, then `{ type: 'unit', unit }` per unit. */
function processChannel(): Channel {
  if (process.send === undefined) throw new Error('train-worker: started neither as a worker thread nor as a child process with IPC');
  const send = process.send.bind(process);
  let handler: ((unit: UnitSpec) => void) | undefined;
  const early: UnitSpec[] = [];
  let init!: (data: WorkerData) => void;
  const data = new Promise<WorkerData>((resolve) => (init = resolve));
  process.on('message', (m: { type: 'init'; workerData: WorkerData } | { type: 'unit'; unit: UnitSpec }) => {
    if (m.type === 'init') init(m.workerData);
    else if (handler !== undefined) handler(m.unit);
    else early.push(m.unit);
  });
  // The pool went away (its process died): nothing will read what this process trains next.
  process.on('disconnect', () => process.exit(1));
  return {
    workerData: data,
    post: (m) => void send(m),
    onUnit: (h) => {
      handler = h;
      for (const u of early.splice(0)) h(u);
    },
  };
}
