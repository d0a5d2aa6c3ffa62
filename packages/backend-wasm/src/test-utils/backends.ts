import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { expect } from 'vitest';
import type { TrainingKernelConfig } from '../internals/training-kernel';
import type { WasmBackend } from '../internals/wasm-backend';
import { useWasmTraining } from '../use-wasm-training';
import { randomValues } from './random-values';

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

/** A filter-gradient routine under test: dW [kh, kw, Ci, Co] for x and dy on the wasm heap. */
export type FilterGradient = (backend: WasmBackend, x: tf.TensorInfo, dy: tf.TensorInfo, info: tf.backend_util.Conv2DInfo) => tf.TensorInfo;

/**
 * Runs `gradient` on wasm for random x and dy of a convolution case and expects the cpu backend's
 * `Conv2DBackpropFilter` within 1e-4, with every intermediate freed (data ids unchanged).
 */
export async function expectFilterGradient(
  gradient: FilterGradient,
  c: {
    x: [number, number, number, number];
    f: [number, number, number, number];
    stride: number;
    pad: 'same' | 'valid' | [[number, number], [number, number], [number, number], [number, number]];
  },
  seed: number,
): Promise<void> {
  const info = tf.backend_util.computeConv2DInfo(c.x, c.f, c.stride, 1, c.pad);
  const dyShape = [c.x[0], info.outHeight, info.outWidth, c.f[3]];
  const xv = randomValues(tf.util.sizeFromShape(c.x), seed);
  const dyv = randomValues(tf.util.sizeFromShape(dyShape), seed + 1);
  const attrs = { filterShape: c.f, strides: [c.stride, c.stride], pad: c.pad, dataFormat: 'NHWC', dimRoundingMode: undefined };
  const expected = await onBackend(
    'cpu',
    () => tf.engine().runKernel('Conv2DBackpropFilter', { x: tf.tensor(xv, c.x), dy: tf.tensor(dyv, dyShape) }, attrs as never) as tf.Tensor,
  );
  await tf.setBackend('wasm');
  const backend = tf.backend() as unknown as WasmBackend & { readSync(id: object): Float32Array; numDataIds(): number };
  const x = tf.tensor(xv, c.x);
  const dy = tf.tensor(dyv, dyShape);
  const before = backend.numDataIds();
  const dw = gradient(backend, x, dy, info);
  const got = { shape: dw.shape, values: Float32Array.from(backend.readSync(dw.dataId)) };
  backend.disposeData(dw.dataId);
  expect(backend.numDataIds()).toBe(before); // every intermediate freed
  tf.dispose([x, dy]);
  expectClose(got, expected);
}
