import { BackendError } from '@mia/core';
import { getKernel, registerKernel, unregisterKernel, type KernelFunc, type TensorInfo } from '@tensorflow/tfjs-core';
import { checkTfjsVersion, supportedTfjsRange } from './check-tfjs-version';
import { trainingKernelConfigs } from './kernel-configs';
import { fusedBatchNormGradient } from './internals/batch-norm-gradient';
import { meanGradient } from './internals/mean-gradient';
import { replaceGradient, restoreGradient } from './internals/replace-gradient';
import { stockKernels } from './internals/kernel-call';
import type { KernelArgs, StockKernel } from './internals/training-kernel';
import { isWasmBackend } from './internals/wasm-backend';

const registered = new Map<string, KernelFunc>();

/**
 * Registers the training kernels for the `wasm` backend (idempotent): `Conv2DBackpropFilter`,
 * `Conv2DBackpropInput`, `BatchMatMul` (transposed operands), `Tile`, prefix-axis `Sum` and `Mean`,
 * `MaxPoolGrad`, `Identity`, `Cast`, `UnsortedSegmentSum` (the gradient of `gather`; missing from stock wasm), `Tanh` (one JavaScript pass), the `FusedBatchNorm` forward (a per-channel affine on the SIMD
 * `Multiply`/`Add`); and, for the wasm backend only, leaner gradients of
 * `FusedBatchNorm` (5 full-size passes instead of ~15) and prefix-axis `Mean` (one tile). Each replaced stock kernel keeps its `setupFunc` and handles
 * every case the new one does not cover.
 *
 * Import `@tensorflow/tfjs-backend-wasm` before calling it (its import registers the stock kernels);
 * it may be called before or after `tf.setBackend('wasm')`.
 *
 * @returns the names of the registered kernels.
 * @throws BackendError when tfjs is outside `supportedTfjsRange`.
 * @see docs/performance.md, root causes 2–5.
 */
export function registerWasmTrainingKernels(): string[] {
  checkTfjsVersion();
  for (const config of trainingKernelConfigs) {
    const name = config.kernelName;
    const current = getKernel(name, 'wasm');
    if (current !== undefined && registered.get(name) === current.kernelFunc) continue;
    const stock = current?.kernelFunc as StockKernel;
    if (stock !== undefined) stockKernels.set(name, stock as never);
    else stockKernels.delete(name);
    const kernelFunc = ((args: KernelArgs): TensorInfo => {
      if (!isWasmBackend(args.backend)) {
        throw new BackendError(
          `@mia/backend-wasm: ${name} ran on a backend without the wasm internals it needs (tfjs-backend-wasm ${supportedTfjsRange} expected)`,
        );
      }
      return config.kernelFunc(args, stock);
    }) as unknown as KernelFunc;
    if (current !== undefined) unregisterKernel(name, 'wasm');
    registerKernel({ kernelName: name, backendName: 'wasm', kernelFunc, setupFunc: current?.setupFunc, disposeFunc: current?.disposeFunc });
    registered.set(name, kernelFunc);
  }
  replaceGradient('FusedBatchNorm', fusedBatchNormGradient);
  replaceGradient('Mean', meanGradient);
  return trainingKernelConfigs.map((c) => c.kernelName);
}

/**
 * Restores the stock wasm kernels replaced by {@link registerWasmTrainingKernels}, removes the
 * added ones and restores tfjs-core's `FusedBatchNorm` and `Mean` gradients (e.g. to compare against stock
 * tfjs-backend-wasm).
 *
 * @returns the names of the kernels it removed.
 */
export function unregisterWasmTrainingKernels(): string[] {
  const removed: string[] = [];
  for (const [name, kernelFunc] of registered) {
    const current = getKernel(name, 'wasm');
    if (current === undefined || current.kernelFunc !== kernelFunc) continue;
    unregisterKernel(name, 'wasm');
    const stock = stockKernels.get(name);
    if (stock !== undefined) {
      registerKernel({
        kernelName: name,
        backendName: 'wasm',
        kernelFunc: stock as unknown as KernelFunc,
        setupFunc: current.setupFunc,
        disposeFunc: current.disposeFunc,
      });
    }
    removed.push(name);
  }
  registered.clear();
  stockKernels.clear();
  restoreGradient('FusedBatchNorm');
  restoreGradient('Mean');
  return removed;
}
