import { BackendError } from '@mia/core';
import { useWasmTraining, type UseWasmTrainingOptions } from '@mia/backend-wasm';
import { loadNativeAddon, nativeUnavailableReason } from './load-native-addon';
import type { NativeAddon, NativeAddonInfo } from './native-addon';
import { registerNativeKernels } from './register-native-kernels';
import { requestedPrecision, resolvePrecision, type NativePrecision, type PrecisionChoice } from './resolve-precision';
import { resolveThreads } from './resolve-threads';
import { resolveAdaptive, setThreadGovernor, ThreadGovernor } from './thread-governor';

/** Options of {@link useNativeTraining}. */
export interface UseNativeTrainingOptions extends UseWasmTrainingOptions {
  /**
   * Threads of the native kernels (OpenMP) for the calling thread. Worker threads set their own.
   * @default the environment variable `MIA_NUM_THREADS`, else every core (`os.availableParallelism()`)
   */
  threads?: number;
  /**
   * Use fewer threads (down to one) while other processes keep cores busy, and `threads` again when
   * the cores are free (checked once a second from the kernel calls): faster on a shared machine, but
   * seeded trainings are then bit-reproducible only under the same load (some kernels' last bits
   * depend on the thread count). No effect on an idle machine. See {@link ThreadGovernor}.
   * @default false, unless the environment sets `MIA_ADAPTIVE_THREADS=1`
   */
  adaptiveThreads?: boolean;
  /**
   * oneDNN's convolution layout: `nhwc` keeps activations as tfjs has them (oneDNN picks the filter
   * layout); `blocked` reorders activations to oneDNN's blocked layout around each call.
   * @default 'nhwc'
   */
  convLayout?: 'nhwc' | 'blocked';
  /**
   * oneDNN's convolution algorithm: `auto` runs 3×3, stride-1 layers with at least 64 input and output
   * channels, on outputs whose sides are multiples of 4, with Winograd F(4×4, 3×3) where oneDNN
   * implements it (AVX-512 CPUs): 0.5–0.75× the time of the direct kernels on those layers, with about
   * twice their rounding error (≈ 1e-6 relative); `direct` uses the direct kernels everywhere (the
   * choice before Winograd was added).
   * @default 'auto', unless the environment sets `MIA_CONV_ALGORITHM` (`auto` or `direct`)
   */
  convAlgorithm?: 'auto' | 'direct';
  /**
   * Precision of the convolutions (forward and both gradients) and matrix products: `fp32`, or `bf16`
   * (mixed precision as PyTorch's CPU autocast: their inputs are rounded to bfloat16, oneDNN
   * accumulates in fp32 and writes fp32; tensors, weights and the optimizer stay fp32; normwise
   * relative error of each product ≈ 2e-3 instead of ≈ 1e-7; the passes where oneDNN's fp32 kernels
   * are as fast stay fp32: the weight gradient of small and first layers, and without AMX the
   * Winograd layers), or `auto`: `bf16` where the CPU has bf16 dot products (AVX-512 BF16, AMX),
   * `fp32` elsewhere. `bf16` on a CPU without them is an error.
   * Per thread, as `threads`: each worker thread sets its own (the toolkit's workers read
   * `MIA_PRECISION`); {@link nativeBackendInfo} says which is active and why.
   * @default 'fp32', unless the environment sets `MIA_PRECISION` (`fp32`, `bf16` or `auto`)
   */
  precision?: PrecisionChoice;
  /**
   * Keep freed native memory mapped (glibc's mmap threshold 32 MB, trim threshold 1 GB) instead of
   * returning it to the kernel after every kernel call: oneDNN's reorder and scratch buffers are
   * then not page-faulted in again each step, 0–15 % of a SmallCNN or ResNet-18 step on this VM
   * (`pnpm bench`, "malloc kept" rows). Left alone when the environment sets
   * `MALLOC_MMAP_THRESHOLD_` or `MALLOC_TRIM_THRESHOLD_` (the user's choice wins).
   * @default true
   */
  keepFreedMemory?: boolean;
}

/** What {@link useNativeTraining} set up. */
export interface NativeTrainingInfo {
  /** `'native'`: tfjs runs on its wasm backend, with native kernels registered over it. */
  backend: 'native';
  /** The registered native kernels. */
  kernels: string[];
  /** The wasm training kernels under them (the fallback). */
  wasmKernels: string[];
  /** OpenMP threads of the native kernels on this thread (the most, when they adapt to the load). */
  threads: number;
  /** Whether the threads adapt to the machine's load (`adaptiveThreads`). */
  adaptiveThreads: boolean;
  /** oneDNN version, ISA and runtime; the precision of the convolutions and matrix products, and why. */
  addon: Pick<NativeAddonInfo, 'onednn' | 'isa' | 'cpuRuntime' | 'convLayout' | 'convAlgorithm'> & {
    precision: NativePrecision;
    precisionReason: string;
  };
}

/**
 * Makes tfjs train at native speed on this machine: sets up the wasm backend with
 * `@mia/backend-wasm`'s training kernels, then registers native kernels over them (oneDNN
 * convolutions and matrix products; multi-threaded element-wise ops, reductions, pooling and batch
 * norm), which compute in place on the wasm heap. Cases a native kernel does not cover run on the
 * wasm kernel below it (counted in `nativeKernelStats()`). Node only.
 *
 * @example
 * ```ts
 * import { useNativeTraining } from '@mia/backend-native';
 * const { threads, addon } = await useNativeTraining();
 * console.log(`native kernels, ${threads} threads, oneDNN ${addon.onednn} (${addon.isa})`);
 * ```
 * @param options - see {@link UseNativeTrainingOptions}.
 * @returns the kernels, threads and oneDNN build in use.
 * @throws BackendError when the addon cannot be loaded here (the message says why: not built, oneDNN
 *   missing, a CPU without AVX2), when `threads` or `MIA_NUM_THREADS`, another option,
 *   `MIA_CONV_ALGORITHM` or `MIA_PRECISION` is invalid, when `bf16` is asked for on a CPU without
 *   bf16 dot products, or when `useWasmTraining` fails.
 */
export async function useNativeTraining(options: UseNativeTrainingOptions = {}): Promise<NativeTrainingInfo> {
  const {
    threads: requested,
    adaptiveThreads,
    convLayout = 'nhwc',
    convAlgorithm = resolveConvAlgorithm(),
    keepFreedMemory = true,
    precision: precisionOption,
    ...wasmOptions
  } = options;
  const precisionRequest = requestedPrecision(precisionOption);
  if (typeof keepFreedMemory !== 'boolean') {
    throw new BackendError(`useNativeTraining: options.keepFreedMemory must be a boolean, got ${JSON.stringify(keepFreedMemory)}`);
  }
  if (!['nhwc', 'blocked'].includes(convLayout)) {
    throw new BackendError(`useNativeTraining: options.convLayout must be 'nhwc' or 'blocked', got ${JSON.stringify(convLayout)}`);
  }
  if (!['auto', 'direct'].includes(convAlgorithm)) {
    throw new BackendError(`useNativeTraining: options.convAlgorithm must be 'auto' or 'direct', got ${JSON.stringify(convAlgorithm)}`);
  }
  if (adaptiveThreads !== undefined && typeof adaptiveThreads !== 'boolean') {
    throw new BackendError(`useNativeTraining: options.adaptiveThreads must be a boolean, got ${JSON.stringify(adaptiveThreads)}`);
  }
  const threads = resolveThreads(requested);
  adaptive = resolveAdaptive(adaptiveThreads);
  const addon = loadNativeAddon();
  // An addon built before the precision option (a stale build) computes in fp32 and cannot do more.
  const stale = typeof addon.setPrecision !== 'function';
  if (stale && precisionRequest.choice === 'bf16')
    throw new BackendError(
      `useNativeTraining: the native addon predates precision 'bf16'; rebuild it (node scripts/install.mjs --force in @mia/backend-native)`,
    );
  const { precision, reason } = resolvePrecision(precisionRequest, stale ? { bf16: false, isa: addon.info().isa } : addon.info());
  const wasm = await useWasmTraining(wasmOptions);
  applyThreads(addon, threads);
  addon.setConvLayout(convLayout);
  addon.setConvAlgorithm(convAlgorithm);
  if (typeof addon.setPrecision === 'function') addon.setPrecision(precision);
  precisionReason = reason;
  const userMalloc = process.env['MALLOC_MMAP_THRESHOLD_'] !== undefined || process.env['MALLOC_TRIM_THRESHOLD_'] !== undefined;
  if (!userMalloc) addon.keepFreedMemory(keepFreedMemory);
  const kernels = registerNativeKernels(addon);
  const { onednn, isa, cpuRuntime } = addon.info();
  return {
    backend: 'native',
    kernels,
    wasmKernels: wasm.kernels,
    threads: addon.getNumThreads(),
    adaptiveThreads: adaptive,
    addon: { onednn, isa, cpuRuntime, convLayout, convAlgorithm, precision, precisionReason: reason },
  };
}

/** `MIA_CONV_ALGORITHM` when set (checked by the caller), else `auto`. */
function resolveConvAlgorithm(): 'auto' | 'direct' {
  const fromEnv = process.env['MIA_CONV_ALGORITHM'];
  if (fromEnv === undefined || fromEnv === '') return 'auto';
  if (fromEnv !== 'auto' && fromEnv !== 'direct')
    throw new BackendError(`useNativeTraining: MIA_CONV_ALGORITHM must be 'auto' or 'direct', got ${JSON.stringify(fromEnv)}`);
  return fromEnv;
}

/** Why the addon computes in its precision (set by {@link useNativeTraining}). */
let precisionReason = 'the default';

/** Whether the threads of this thread's kernels adapt to the load (set by {@link useNativeTraining}). */
let adaptive: boolean | undefined;

function applyThreads(addon: NativeAddon, threads: number): void {
  addon.setNumThreads(threads);
  adaptive ??= resolveAdaptive();
  setThreadGovernor(adaptive && threads > 1 ? new ThreadGovernor(threads, (n) => addon.setNumThreads(n)) : undefined);
}

/**
 * Sets the native kernels' thread count for the calling thread (e.g. per worker: cores ÷ workers); the
 * most threads when they adapt to the load (`adaptiveThreads` of {@link useNativeTraining}).
 * @param threads - a positive integer.
 * @throws BackendError when the addon is unavailable or `threads` is not a positive integer.
 */
export function setNativeThreads(threads: number): void {
  applyThreads(loadNativeAddon(), resolveThreads(threads));
}

/**
 * The addon's state on this thread: oneDNN version and ISA, threads, the precision of the
 * convolutions and matrix products and why, cached convolution primitives and their implementations.
 * @throws BackendError when the addon is unavailable.
 */
export function nativeBackendInfo(): NativeAddonInfo & { precisionReason: string } {
  return { ...loadNativeAddon().info(), precisionReason };
}

/**
 * The precision of the native convolutions and matrix products on this thread (`fp32` where the
 * addon is unavailable: nothing then runs in bf16). Part of what decides a trained model's weights,
 * so caches of trained models key on it.
 */
export function nativePrecision(): NativePrecision {
  return nativeUnavailableReason() === undefined && loadNativeAddon().info().precision === 'bf16' ? 'bf16' : 'fp32';
}
