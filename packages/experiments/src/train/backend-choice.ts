import { chosenBackend, initBackend, type BackendName, type InitBackendOptions, type InitBackendResult } from '@mia/core';
import * as tf from '@tensorflow/tfjs-core';
import { availableParallelism } from 'node:os';

/** `@mia/backend-native` once `initBackend` has loaded it through {@link backendLoaders} (read by {@link activePrecision}). */
let nativeModule: typeof import('@mia/backend-native') | undefined;

/** How `initBackend` imports each backend from this package's own dependencies (pnpm's strict layout). */
export const backendLoaders = {
  native: async () => (nativeModule = await import('@mia/backend-native')),
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

/**
 * The precision of this thread's convolutions and matrix products: `bf16` when the native backend
 * runs in bf16 (`MIA_PRECISION`, `useNativeTraining({ precision })`), else `fp32`. It decides a
 * trained model's weights, so it is part of the model cache key (when bf16) and of `results.json`.
 */
export function activePrecision(): 'fp32' | 'bf16' {
  return activeBackend() === 'native' && nativeModule !== undefined ? nativeModule.nativePrecision() : 'fp32';
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
