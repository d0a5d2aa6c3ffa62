import { isMainThread } from 'node:worker_threads';

/**
 * How long (busy-wait iterations) an OpenMP thread spins at the end of a parallel region before it
 * sleeps, unless the user chose (`GOMP_SPINCOUNT` or `OMP_WAIT_POLICY` set). libgomp's default is
 * 300,000 iterations (about 5 ms here), which turns every wait for a core that another process holds
 * into CPU time: a training step beside a 2-thread load cost 4× its idle CPU time. The measurements
 * behind the value are in `docs/decisions/0050-openmp-waiting.md`.
 */
export const DEFAULT_SPIN_COUNT = 10_000;

/**
 * Sets the OpenMP environment the native kernels run best with (a short spin, {@link DEFAULT_SPIN_COUNT})
 * unless the user set `GOMP_SPINCOUNT` or `OMP_WAIT_POLICY`. It must run before the OpenMP runtime is
 * loaded (libgomp reads its environment once, when the addon first loads in the process), from the main
 * thread (a worker thread's `process.env` is its own copy, which native code does not see): the
 * loader calls it, and so should code that starts worker threads which load the addon before the main
 * thread does.
 * @param env - the environment to complete (the process's by default).
 * @returns whether it set anything.
 */
export function useOpenMpDefaults(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env === process.env && !isMainThread) return false;
  const set = (name: string): boolean => env[name] !== undefined && env[name] !== '';
  if (set('GOMP_SPINCOUNT') || set('OMP_WAIT_POLICY')) return false;
  env['GOMP_SPINCOUNT'] = String(DEFAULT_SPIN_COUNT);
  return true;
}
