import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { expect } from 'vitest';
import type { TrainingKernelConfig } from '../internals/training-kernel';
import type { WasmBackend } from '../internals/wasm-backend';
import { useWasmTraining } from '../use-wasm-training';

export { randomValues } from './random-values';

/** Sets up the wasm backend with the training kernels (once per test file). */
export async function setupWasm(): Promise<WasmBackend> {
  await useWasmTraining();
  return tf.backend() as unknown as WasmBackend;
}


/** Runs `fn` on the named backend and returns the values it produced (tensors disposed). */
export async function onBackend(name: 'cpu' | 'wasm', fn: () => tf.Tensor): Promise<{ shape: number[]; values: Float32Array }> {
  await tf.setBackend(name);
  const out = tf.tidy(fn);
  const values = out.dataSync() as Float32Array;
  const shape = out.shape;
  out.dispose();
  return { shape, values: Float32Array.from(values) };
}

/**
 * Runs a training kernel's own code path on the wasm backend (stock fallback disabled), so a test
 * fails when the new kernel is wrong even if the stock one would be right.
 */
export async function runOwnKernel(
  config: TrainingKernelConfig,
  inputs: Record<string, { shape: number[]; values: Float32Array }>,
  attrs: Record<string, unknown>,
): Promise<{ shape: number[]; values: Float32Array }> {
  await tf.setBackend('wasm');
  const backend = tf.backend() as unknown as WasmBackend & { readSync(id: object): Float32Array; numDataIds(): number };
  const tensors = Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, tf.tensor(v.values, v.shape)]));
  const before = backend.numDataIds();
  const out = config.kernelFunc({ inputs: tensors, backend, attrs: attrs as tf.NamedAttrMap }, undefined);
  const values = Float32Array.from(backend.readSync(out.dataId));
  backend.disposeData(out.dataId);
  // Every intermediate of the kernel must have been freed.
  expect(backend.numDataIds()).toBe(before);
  for (const t of Object.values(tensors)) t.dispose();
  return { shape: out.shape, values };
}

/** Expects equal shapes and values within `rel` of the largest magnitude of `expected`. */
export function expectClose(actual: { shape: number[]; values: Float32Array }, expected: { shape: number[]; values: Float32Array }, rel = 1e-4): void {
  expect(actual.shape).toEqual(expected.shape);
  let scale = 1e-6;
  for (const v of expected.values) scale = Math.max(scale, Math.abs(v));
  let worst = 0;
  for (let i = 0; i < expected.values.length; i++) {
    worst = Math.max(worst, Math.abs((actual.values[i] as number) - (expected.values[i] as number)));
  }
  expect(worst / scale).toBeLessThanOrEqual(rel);
}
