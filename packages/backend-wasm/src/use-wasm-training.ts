import { BackendError } from '@mia/core';
import { getThreadsCount, setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { backend, engine, env, setBackend } from '@tensorflow/tfjs-core';
import { checkTfjsVersion, type TfjsVersions } from './check-tfjs-version';
import { installEarlyFreeBackprop } from './internals/early-free-backprop';
import { guardMalloc } from './internals/guard-malloc';
import { isWasmBackend } from './internals/wasm-backend';
import { registerWasmTrainingKernels } from './register-wasm-training-kernels';

/** Options of {@link useWasmTraining}. */
export interface UseWasmTrainingOptions {
  /**
   * Fail when the runtime has no WebAssembly SIMD. Without SIMD tfjs loads its scalar wasm binary:
   * the kernels stay correct but training is several times slower.
   * @default true
   */
  requireSimd?: boolean;
  /** Where the `.wasm` binaries are, passed to `setWasmPaths` (browsers and bundlers; Node finds them itself). */
  wasmPaths?: string;
  /**
   * Free each intermediate gradient and saved activation as soon as back-propagation has passed it
   * (on the wasm backend, top-level gradients only), instead of at the end of the backward pass as
   * tfjs does: lowers the peak heap by about half (ResNet-18 at batch 128 then fits the 4 GB heap).
   * Installed once per process: `false` does not install it (it stays once an earlier call did).
   * @default true
   */
  freeGradientsEarly?: boolean;
}

/** What {@link useWasmTraining} set up. */
export interface WasmTrainingInfo {
  /** Always `'wasm'`. */
  backend: 'wasm';
  /** Names of the registered training kernels. */
  kernels: string[];
  /** Whether the SIMD build of the wasm binary is in use. */
  simd: boolean;
  /** XNNPACK threads (1 under Node, where tfjs disables wasm threads). */
  threads: number;
  /** The tfjs versions in use. */
  versions: TfjsVersions;
}

/**
 * Makes `@tensorflow/tfjs-backend-wasm` the active backend and registers the training kernels
 * (see `registerWasmTrainingKernels`).
 *
 * @example
 * ```ts
 * import { useWasmTraining } from '@mia/backend-wasm';
 * const { kernels } = await useWasmTraining();
 * ```
 * @param options - see {@link UseWasmTrainingOptions}.
 * @returns the backend, the registered kernel names, SIMD and thread use, versions.
 * @throws BackendError when tfjs is outside the supported range, when SIMD is missing and
 *   `requireSimd` is true, or when the wasm backend fails to initialise. Afterwards, a tensor
 *   allocation that does not fit the 4 GB wasm heap throws a BackendError (stock tfjs would write
 *   the tensor at address 0).
 * @see docs/performance.md
 */
export async function useWasmTraining(options: UseWasmTrainingOptions = {}): Promise<WasmTrainingInfo> {
  const { requireSimd = true, wasmPaths, freeGradientsEarly = true } = options;
  if (typeof requireSimd !== 'boolean') {
    throw new BackendError(`useWasmTraining: options.requireSimd must be a boolean, got ${String(requireSimd)}`);
  }
  if (typeof freeGradientsEarly !== 'boolean') {
    throw new BackendError(`useWasmTraining: options.freeGradientsEarly must be a boolean, got ${String(freeGradientsEarly)}`);
  }
  const versions = checkTfjsVersion();
  const simd = (await env().getAsync('WASM_HAS_SIMD_SUPPORT')) === true;
  if (!simd && requireSimd) {
    throw new BackendError(
      'useWasmTraining: this runtime has no WebAssembly SIMD, so tfjs would load its scalar wasm binary (several times slower); pass {requireSimd: false} to accept that',
    );
  }
  if (wasmPaths !== undefined) setWasmPaths(wasmPaths);
  const kernels = registerWasmTrainingKernels();
  let ok = false;
  try {
    ok = await setBackend('wasm');
  } catch (cause) {
    throw new BackendError(`useWasmTraining: tf.setBackend('wasm') threw`, { cause });
  }
  if (!ok) throw new BackendError(`useWasmTraining: tf.setBackend('wasm') returned false (the wasm binary could not be loaded; set options.wasmPaths)`);
  const wasmBackend = backend();
  if (!isWasmBackend(wasmBackend)) {
    throw new BackendError(
      'useWasmTraining: the wasm backend lacks makeOutput/typedArrayFromHeap/disposeData; the tfjs-backend-wasm build is not one the kernels support',
    );
  }
  guardMalloc(wasmBackend);
  if (freeGradientsEarly) installEarlyFreeBackprop(engine());
  return { backend: 'wasm', kernels, simd, threads: getThreadsCount(), versions };
}
