import type { NamedAttrMap, TensorInfo } from '@tensorflow/tfjs-core';
import type { WasmBackend } from './wasm-backend';

/** Arguments of a wasm kernel function (tfjs passes inputs by name). */
export interface KernelArgs {
  inputs: Record<string, TensorInfo>;
  backend: WasmBackend;
  attrs: NamedAttrMap;
}

/** The stock wasm kernel of the same name, for the cases a training kernel does not cover. */
export type StockKernel = ((args: KernelArgs) => TensorInfo) | undefined;

/**
 * A training kernel: like a tfjs `KernelConfig` for the `wasm` backend, but the kernel function
 * also receives the stock kernel it replaces (undefined when the backend has none), and falls
 * back to it for every case it does not handle.
 */
export interface TrainingKernelConfig {
  /** tfjs kernel name, e.g. `Conv2DBackpropFilter`. */
  kernelName: string;
  /** Computes the kernel, or delegates to `stock`. */
  kernelFunc(args: KernelArgs, stock: StockKernel): TensorInfo;
}

/** Calls the stock kernel, or throws when there is none (a case no kernel covers). */
export function runStock(name: string, args: KernelArgs, stock: StockKernel, why: string): TensorInfo {
  if (stock === undefined) throw new Error(`@mia/backend-wasm: ${name} does not support ${why} and wasm has no stock kernel`);
  return stock(args);
}
