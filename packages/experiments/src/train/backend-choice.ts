import { chosenBackend, initBackend, type BackendName, type InitBackendOptions, type InitBackendResult } from '@mia/core';
import * as tf from '@tensorflow/tfjs-core';
import { availableParallelism } from 'node:os';

/** How `initBackend` imports each backend from this package's own dependencies (pnpm's strict layout). */
export const backendLoaders = {
  native: () => import('@mia/backend-native'),
  wasm: () => import('@mia/backend-wasm'),
  cpu: () => import('@tensorflow/tfjs-backend-cpu'),
} as const;

/**
 * Loads the backend `mia` trains on: `initBackend` (native, then wasm, then cpu, after tfjs-node(-gpu)
 * when installed) with the backends imported from this package's own dependencies, so that code
 * outside it (a reproduction's tests, a script) gets the same backend as the CLI.
 */
export function initDefaultBackend(options: Omit<InitBackendOptions, 'loaders'> = {}): Promise<InitBackendResult> {
  return initBackend({ ...options, loaders: backendLoaders });
}

/** The values `mia --backend` accepts, in `initBackend`'s order of preference. */
export const BACKEND_NAMES: readonly BackendName[] = ['tensorflow-gpu', 'tensorflow', 'native', 'wasm', 'cpu'];

/** The backend this thread runs on, as `initBackend` names it (`native`, not tfjs's `wasm`). */
export function activeBackend(): string {
  return chosenBackend() ?? tf.getBackend();
}

/** `name` as a backend a worker can be told to load, or undefined. */
export function asBackendName(name: string | undefined): BackendName | undefined {
  return BACKEND_NAMES.find((n) => n === name);
}

/**
 * Native threads for each of `workers` concurrent trainings: the cores (or `MIA_NUM_THREADS`)
 * divided among them, at least 1, so that the workers together never oversubscribe the machine.
 */
export function threadsPerWorker(workers: number, env: NodeJS.ProcessEnv = process.env): number {
  const fromEnv = Number(env['MIA_NUM_THREADS']);
  const total = Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : availableParallelism();
  return Math.max(1, Math.floor(total / Math.max(1, workers)));
}
