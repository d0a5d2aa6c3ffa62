import { BackendError } from '@mia/core';
import { availableParallelism } from 'node:os';

/**
 * The number of threads the native kernels use: `requested` when given, else the environment
 * variable `MIA_NUM_THREADS`, else every core (`os.availableParallelism()`).
 * @throws BackendError when `requested` or `MIA_NUM_THREADS` is not a positive integer.
 */
export function resolveThreads(requested?: number, env: NodeJS.ProcessEnv = process.env): number {
  if (requested !== undefined) {
    if (!Number.isInteger(requested) || requested < 1)
      throw new BackendError(`useNativeTraining: threads must be a positive integer, got ${String(requested)}`);
    return requested;
  }
  const fromEnv = env['MIA_NUM_THREADS'];
  if (fromEnv !== undefined && fromEnv !== '') {
    const n = Number(fromEnv);
    if (!Number.isInteger(n) || n < 1) throw new BackendError(`MIA_NUM_THREADS must be a positive integer, got ${JSON.stringify(fromEnv)}`);
    return n;
  }
  return availableParallelism();
}
