import * as tf from '@tensorflow/tfjs-core';
import { BackendError } from './errors';

/** Backends {@link initBackend} can choose, in its default order of preference. */
export type BackendName = 'tensorflow-gpu' | 'tensorflow' | 'wasm' | 'cpu';

/** Options of {@link initBackend}. */
export interface InitBackendOptions {
  /**
   * Backends to try, in order. `'tensorflow-gpu'` / `'tensorflow'` load `@tensorflow/tfjs-node-gpu`
   * / `@tensorflow/tfjs-node` when the user has them installed; `'wasm'` loads `@mia/backend-wasm`
   * (the wasm backend with our training kernels); `'cpu'` loads `@tensorflow/tfjs-backend-cpu`.
   * @default ['tensorflow-gpu', 'tensorflow', 'wasm', 'cpu']
   */
  readonly prefer?: readonly BackendName[];
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
  wasm: '@mia/backend-wasm',
  cpu: '@tensorflow/tfjs-backend-cpu',
};

async function load(name: BackendName, loader: (() => Promise<unknown>) | undefined): Promise<string> {
  const specifier = MODULES[name];
  const mod = (await (loader ?? (() => import(/* @vite-ignore */ specifier)))()) as { useWasmTraining?: () => Promise<unknown> };
  if (name === 'wasm') {
    if (typeof mod.useWasmTraining !== 'function') throw new Error('@mia/backend-wasm does not export useWasmTraining');
    await mod.useWasmTraining();
    return 'wasm';
  }
  const target = name === 'cpu' ? 'cpu' : 'tensorflow';
  if (!(await tf.setBackend(target))) throw new Error(`tf.setBackend('${target}') returned false`);
  return target;
}

/**
 * Picks the fastest backend that loads here: `@tensorflow/tfjs-node-gpu`, `@tensorflow/tfjs-node`
 * (only if the user installed them), then the wasm backend made trainable by `@mia/backend-wasm`,
 * then the plain cpu backend, and reports which one it got.
 * @throws BackendError when none of the candidates loads (the message lists why each failed).
 */
export async function initBackend(options: InitBackendOptions = {}): Promise<InitBackendResult> {
  const prefer = options.prefer ?? ['tensorflow-gpu', 'tensorflow', 'wasm', 'cpu'];
  const skipped: Array<{ name: BackendName; reason: string }> = [];
  for (const name of prefer) {
    if (!(name in MODULES)) throw new BackendError(`initBackend: prefer must list names from ${Object.keys(MODULES).join(', ')}, got ${JSON.stringify(name)}`);
    try {
      const tfBackend = await load(name, options.loaders?.[name]);
      return { name, tfBackend, skipped };
    } catch (error) {
      const reason = error instanceof Error ? error.message.split('\n')[0]! : String(error);
      skipped.push({ name, reason });
      options.onSkip?.(name, reason);
    }
  }
  throw new BackendError(`initBackend: no backend could be loaded: ${skipped.map((s) => `${s.name} (${s.reason})`).join('; ')}`);
}
