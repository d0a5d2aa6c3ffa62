import { BackendError } from '@mia/core';
import { replaceGradient, restoreGradient } from '@mia/backend-wasm';
import { getKernel, registerKernel, unregisterKernel, type KernelConfig, type KernelFunc, type TensorInfo } from '@tensorflow/tfjs-core';
import { isHeapBackend } from './internals/heap-backend';
import type { NativeKernelArgs } from './internals/native-kernel';
import { reluGradient, tanhGradient } from './kernels/activation-gradients';
import { countFallback, countNative } from './kernel-stats';
import { nativeKernelConfigs } from './kernel-configs';
import type { NativeAddon } from './native-addon';
import { threadGovernor } from './thread-governor';

/** The kernel each native kernel replaced (undefined when the wasm backend had none), by name. */
const replaced = new Map<string, KernelConfig | undefined>();
const registered = new Map<string, KernelFunc>();

/**
 * Registers the native kernels on the `wasm` backend over the kernels registered there before
 * (`@mia/backend-wasm`'s or stock tfjs-wasm's), which stay as the fallback for every case a native
 * kernel does not cover; each fallback is counted with its reason (`nativeKernelStats`). Also
 * routes the gradients of `Relu` and `Tanh` through fused native kernels (one pass instead of three)
 * while those kernels are registered. Idempotent.
 * @param addon - the loaded addon.
 * @returns the names of the native kernels.
 * @internal
 */
export function registerNativeKernels(addon: NativeAddon): string[] {
  // An addon built before a kernel's function was added (a stale build) keeps that op on its tfjs path.
  const available = nativeKernelConfigs.filter((c) => c.addonFunction === undefined || typeof addon[c.addonFunction] === 'function');
  for (const config of available) {
    const name = config.kernelName;
    const current = getKernel(name, 'wasm');
    if (current !== undefined && registered.get(name) === current.kernelFunc) continue;
    const previous = current?.kernelFunc as ((args: NativeKernelArgs) => TensorInfo | TensorInfo[]) | undefined;
    const kernelFunc = ((args: NativeKernelArgs): TensorInfo | TensorInfo[] => {
      if (!isHeapBackend(args.backend)) throw new BackendError(`@mia/backend-native: ${name} ran on a backend without the tfjs-wasm heap`);
      threadGovernor()?.tick();
      let fellBack = false;
      const out = config.run(args, {
        addon,
        fallback(reason) {
          fellBack = true;
          countFallback(name, reason);
          if (previous === undefined)
            throw new BackendError(`@mia/backend-native: ${name} does not support ${reason}, and the wasm backend has no ${name} kernel`);
          return previous(args);
        },
      });
      if (!fellBack) countNative(name);
      return out;
    }) as unknown as KernelFunc;
    if (current !== undefined) unregisterKernel(name, 'wasm');
    registerKernel({ kernelName: name, backendName: 'wasm', kernelFunc, setupFunc: current?.setupFunc, disposeFunc: current?.disposeFunc });
    replaced.set(name, current);
    registered.set(name, kernelFunc);
  }
  // Fused activation gradients (one pass instead of three), used where their kernels are registered.
  replaceGradient('Relu', reluGradient);
  replaceGradient('Tanh', tanhGradient);
  return available.map((c) => c.kernelName);
}

/**
 * Puts back the kernels {@link registerNativeKernels} replaced (the wasm path alone, e.g. to compare).
 * @returns the names of the kernels it removed.
 */
export function unregisterNativeKernels(): string[] {
  const removed: string[] = [];
  for (const [name, kernelFunc] of registered) {
    const current = getKernel(name, 'wasm');
    if (current === undefined || current.kernelFunc !== kernelFunc) continue;
    unregisterKernel(name, 'wasm');
    const previous = replaced.get(name);
    if (previous !== undefined) registerKernel(previous);
    removed.push(name);
  }
  registered.clear();
  replaced.clear();
  restoreGradient('Relu');
  restoreGradient('Tanh');
  return removed;
}
