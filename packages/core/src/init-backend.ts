import * as tf from '@tensorflow/tfjs-core';
import { useCpuTraining } from './cpu-filter-gradient';
import { BackendError } from './errors';

/** Backends {@link initBackend} can choose, in its default order of preference. */
export type BackendName = 'tensorflow-gpu' | 'tensorflow' | 'native' | 'wasm' | 'cpu';

/** Options of {@link initBackend}. */
export interface InitBackendOptions {
  /**
   * Backends to try, in order. `'tensorflow-gpu'` / `'tensorflow'` load `@tensorflow/tfjs-node-gpu`
   * / `@tensorflow/tfjs-node` when the user has them installed; `'native'` loads
   * `@mia/backend-native` (the wasm backend with oneDNN/OpenMP kernels computing on its heap; Node
   * only, needs its compiled addon); `'wasm'` loads `@mia/backend-wasm` (the wasm backend with our
   * training kernels); `'cpu'` loads `@tensorflow/tfjs-backend-cpu`.
   * @default ['tensorflow-gpu', 'tensorflow', 'native', 'wasm', 'cpu']
   */
  readonly prefer?: readonly BackendName[];
  /**
   * Threads of the `native` backend on this thread (ignored by the others).
   * @default `MIA_NUM_THREADS`, else every core
   */
  readonly threads?: number;
  /**
   * How to import each backend module. The default is a dynamic `import()` of the package name
   * from `@mia/core`'s own location, which finds packages installed next to it (npm, yarn); under
   * pnpm's strict layout pass loaders from your application, e.g.
   * `{ wasm: () => import('@mia/backend-wasm') }`.
   */
  readonly loaders?: Partial<Record<BackendName, () => Promise<unknown>>>;
  /** Called with a line per backend that could not be loaded (why it was skipped). */
  readonly onSkip?: (name: BackendName, reason: string) => void;
}

/** What {@link initBackend} chose. */
export interface InitBackendResult {
  /** The chosen backend. */
  readonly name: BackendName;
  /** `tf.getBackend()` after the switch (`'tensorflow'`, `'wasm'`, `'cpu'`). */
  readonly tfBackend: string;
  /** Why earlier candidates were skipped. */
  readonly skipped: ReadonlyArray<{ name: BackendName; reason: string }>;
}

// Module names are kept in variables so that bundlers do not try to resolve optional packages.
const MODULES: Record<BackendName, string> = {
  'tensorflow-gpu': '@tensorflow/tfjs-node-gpu',
  tensorflow: '@tensorflow/tfjs-node',
  native: '@mia/backend-native',
  wasm: '@mia/backend-wasm',
  cpu: '@tensorflow/tfjs-backend-cpu',
};

let chosen: BackendName | undefined;

/**
 * The backend the last successful {@link initBackend} of this thread chose (`'native'` although tfjs
 * reports `'wasm'`), or undefined before any.
 */
export function chosenBackend(): BackendName | undefined {
  return chosen;
}

async function importBackend(name: BackendName, loader: (() => Promise<unknown>) | undefined): Promise<unknown> {
  const specifier = MODULES[name];
  return (loader ?? (() => import(/* @vite-ignore */ specifier)))();
}

async function load(name: BackendName, options: InitBackendOptions): Promise<string> {
  const loader = options.loaders?.[name];
  const threads = options.threads;
  const mod = (await importBackend(name, loader)) as {
    useWasmTraining?: () => Promise<unknown>;
    useNativeTraining?: (options: { threads?: number }) => Promise<unknown>;
  };
  if (name === 'native') {
    if (typeof mod.useNativeTraining !== 'function') throw new Error('@mia/backend-native does not export useNativeTraining');
    await mod.useNativeTraining(threads === undefined ? {} : { threads });
    return 'wasm';
  }
  if (name === 'wasm') {
    // The native kernels sit on top of the wasm backend: choosing plain wasm after native removes them.
    if (chosen === 'native') {
      const native = (await importBackend('native', options.loaders?.native)) as { unregisterNativeKernels?: () => unknown };
      native.unregisterNativeKernels?.();
    }
    if (typeof mod.useWasmTraining !== 'function') throw new Error('@mia/backend-wasm does not export useWasmTraining');
    await mod.useWasmTraining();
    return 'wasm';
  }
  const target = name === 'cpu' ? 'cpu' : 'tensorflow';
  if (!(await tf.setBackend(target))) throw new Error(`tf.setBackend('${target}') returned false`);
  if (target === 'cpu') {
    silenceCpuBanner();
    useCpuTraining();
  }
  return target;
}

/**
 * `@tensorflow/tfjs-backend-cpu` prints a "Hi, looks like you are running TensorFlow.js in Node.js …
 * install our node backend" banner on its first tensor, in every process and worker thread. Here the
 * cpu backend was chosen by {@link initBackend}, which already reports why the faster ones were
 * skipped, so the banner is only noise: mark the backend as used (its `firstUse` flag, the only thing
 * the banner depends on). Every other tfjs warning still prints.
 */
function silenceCpuBanner(): void {
  const backend = tf.findBackend('cpu') as { firstUse?: boolean } | null;
  if (backend !== null && typeof backend.firstUse === 'boolean') backend.firstUse = false;
}

/**
 * Picks the fastest backend that loads here: `@tensorflow/tfjs-node-gpu`, `@tensorflow/tfjs-node`
 * (only if the user installed them), then the native kernels of `@mia/backend-native` (when its
 * addon is built and oneDNN is installed), then the wasm backend made trainable by
 * `@mia/backend-wasm`, then the plain cpu backend, and reports which one it got and why the
 * earlier ones were skipped.
 * @throws BackendError when none of the candidates loads (the message lists why each failed).
 */
export async function initBackend(options: InitBackendOptions = {}): Promise<InitBackendResult> {
  const prefer = options.prefer ?? ['tensorflow-gpu', 'tensorflow', 'native', 'wasm', 'cpu'];
  if (options.threads !== undefined && !(Number.isInteger(options.threads) && options.threads > 0)) {
    throw new BackendError(`initBackend: threads must be a positive integer, got ${String(options.threads)}`);
  }
  const skipped: Array<{ name: BackendName; reason: string }> = [];
  for (const name of prefer) {
    if (!(name in MODULES)) throw new BackendError(`initBackend: prefer must list names from ${Object.keys(MODULES).join(', ')}, got ${JSON.stringify(name)}`);
    try {
      const tfBackend = await load(name, options);
      chosen = name;
      return { name, tfBackend, skipped };
    } catch (error) {
      const reason = error instanceof Error ? error.message.split('\n')[0]! : String(error);
      skipped.push({ name, reason });
      options.onSkip?.(name, reason);
    }
  }
  throw new BackendError(`initBackend: no backend could be loaded: ${skipped.map((s) => `${s.name} (${s.reason})`).join('; ')}`);
}
