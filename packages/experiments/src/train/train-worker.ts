import { parentPort, workerData } from 'node:worker_threads';
import { initBackend } from '@mia/core';
import { asBackendName, backendLoaders } from './backend-choice';
import { DirectoryArtifactStore } from '../store/artifact-store';
import { importDefenseModules } from '../defenses/registry';
import type { ExperimentConfig } from '../config/schema';
import { prepareData } from '../data/prepare-data';
import { trainUnit, type TrainUnitSpec } from './train-unit';
import { unitDefense } from './run-units';
import type { WorkerMessage } from './worker-pool';

// One worker thread of the training pool: its own backend and data copy; trains the units it is
// sent and writes them into the shared store.
const { config, storeRoot, dataDir, backend, threads } = workerData as {
  config: ExperimentConfig;
  storeRoot: string;
  dataDir?: string;
  backend?: string;
  threads?: number;
};
const post = (m: WorkerMessage) => parentPort!.postMessage(m);

try {
  // The same backend as the main thread, so a pooled run gives the same numbers as an in-thread one;
  // native kernels get this worker's share of the cores.
  const name = asBackendName(backend);
  await initBackend({ loaders: backendLoaders, ...(name === undefined ? {} : { prefer: [name] }), ...(threads === undefined ? {} : { threads }) });
  // User defenses: the modules that register them (the coordinator listed them in the config).
  await importDefenseModules(config.modules);
  const data = await prepareData(config, { dataDir });
  const store = new DirectoryArtifactStore(storeRoot);
  parentPort!.on('message', (unit: TrainUnitSpec) => {
    // A reference model (defenseIndex −1) trains without the defense, once per run.
    trainUnit(config, data, unitDefense(config, unit), unit.role, store, { onLog: (line) => post({ type: 'log', line }) })
      .then(() => post({ type: 'done', unit }))
      .catch((error: unknown) => post({ type: 'error', message: error instanceof Error ? error.message : String(error) }));
  });
  post({ type: 'ready' });
} catch (error) {
  post({ type: 'error', message: error instanceof Error ? error.message : String(error) });
}
