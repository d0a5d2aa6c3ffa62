import '@tensorflow/tfjs-backend-cpu';
import { seededRandom } from '@mia/core';
import * as tf from '@tensorflow/tfjs-core';
import { expect } from 'vitest';
import type { HeapBackend } from '../internals/heap-backend';
import { nativeKernelStats, resetNativeKernelStats } from '../kernel-stats';
import { useNativeTraining } from '../use-native-training';

/** The wasm backend as the native kernels see it, plus its data-id count (leak checks). */
export type NativeTestBackend = HeapBackend & { numDataIds(): number };

/** A tensor's shape and values, read back and disposed. */
export interface Values {
  shape: number[];
  values: Float32Array | Int32Array;
}

/** Which kernels a run must count as native, and which as fallbacks (with a reason matching the pattern). */
export interface Counted {
  native?: string[];
  fallback?: Record<string, RegExp>;
}

/** Sets up the wasm backend with the native kernels over it (2 threads, fp32 whatever MIA_PRECISION says), once per test file. */
export async function setupNative(): Promise<NativeTestBackend> {
  await useNativeTraining({ threads: 2, precision: 'fp32' });
  return tf.backend() as unknown as NativeTestBackend;
}

/** Uniform(-1, 1) float32 values from a seed. */
export function randomValues(size: number, seed: number): Float32Array {
  const random = seededRandom(seed);
  return Float32Array.from({ length: size }, () => 2 * random.next() - 1);
}

/** A float32 tensor of uniform(-1, 1) values from a seed. */
export function randomTensor(shape: number[], seed: number): tf.Tensor {
  return tf.tensor(randomValues(tf.util.sizeFromShape(shape), seed), shape);
}

function read(out: tf.Tensor | tf.Tensor[]): Values[] {
  return (Array.isArray(out) ? out : [out]).map((t) => ({
    shape: t.shape,
    values: (t.dtype === 'int32' ? Int32Array : Float32Array).from(t.dataSync() as Float32Array),
  }));
}

/** Runs `fn` (which builds its own input tensors) on the cpu backend; returns every output, disposed. */
export async function onCpu(fn: () => tf.Tensor | tf.Tensor[]): Promise<Values[]> {
  await tf.setBackend('cpu');
  const out = tf.tidy(fn);
  const values = read(out);
  tf.dispose(out);
  return values;
}

/**
 * Runs `fn` on the wasm backend with the native kernels; expects the kernels of `counted` to have run
 * natively (and never fallen back) or fallen back with the given reason (and never run natively), and
 * no tensor or backend data id left over once the outputs are disposed.
 */
export async function onNative(fn: () => tf.Tensor | tf.Tensor[], counted: Counted): Promise<Values[]> {
  await tf.setBackend('wasm');
  const backend = tf.backend() as unknown as NativeTestBackend;
  const tensors = tf.memory().numTensors;
  const dataIds = backend.numDataIds();
  resetNativeKernelStats();
  const out = tf.tidy(fn);
  const stats = nativeKernelStats();
  const values = read(out);
  tf.dispose(out);
  expect(tf.memory().numTensors, 'tensors left over').toBe(tensors);
  expect(backend.numDataIds(), 'backend data ids left over').toBe(dataIds);
  for (const name of counted.native ?? []) {
    expect(stats[name]?.native ?? 0, `${name}: native calls`).toBeGreaterThan(0);
    expect(stats[name]?.fallback ?? 0, `${name}: fallbacks ${JSON.stringify(stats[name]?.reasons)}`).toBe(0);
  }
  for (const [name, reason] of Object.entries(counted.fallback ?? {})) {
    expect(stats[name]?.fallback ?? 0, `${name}: fallbacks`).toBeGreaterThan(0);
    expect(stats[name]?.native ?? 0, `${name}: native calls`).toBe(0);
    expect(Object.keys(stats[name]?.reasons ?? {}).join('; ')).toMatch(reason);
  }
  return values;
}

/**
 * Expects equal shapes, NaN at the same places, equal infinities, and finite values within `rel` of
 * the largest finite magnitude of `expected`.
 */
export function expectClose(actual: Values, expected: Values, rel = 1e-4): void {
  expect(actual.shape).toEqual(expected.shape);
  expect(actual.values.length).toBe(expected.values.length);
  let scale = 1e-6;
  for (const v of expected.values) if (Number.isFinite(v)) scale = Math.max(scale, Math.abs(v));
  let worst = 0;
  let worstAt = -1;
  let nonFinite = -1;
  for (let i = 0; i < expected.values.length; i++) {
    const a = actual.values[i] as number;
    const e = expected.values[i] as number;
    if (!Number.isFinite(e) || !Number.isFinite(a)) {
      if (nonFinite < 0 && !Object.is(Number.isNaN(a) ? NaN : a, Number.isNaN(e) ? NaN : e)) nonFinite = i;
      continue;
    }
    const d = Math.abs(a - e);
    if (d > worst) {
      worst = d;
      worstAt = i;
    }
  }
  if (nonFinite >= 0) expect(actual.values[nonFinite], `element ${nonFinite} (NaN and ±Inf must match)`).toBe(expected.values[nonFinite]);
  expect(worst / scale, `worst relative error at element ${worstAt}`).toBeLessThanOrEqual(rel);
}

/** Runs `fn` on cpu and natively (see {@link onNative}) and expects every output close (see {@link expectClose}). */
export async function expectMatchesCpu(fn: () => tf.Tensor | tf.Tensor[], counted: Counted, rel = 1e-4): Promise<void> {
  const expected = await onCpu(fn);
  const actual = await onNative(fn, counted);
  expect(actual.length).toBe(expected.length);
  actual.forEach((a, i) => expectClose(a, expected[i]!, rel));
}

/**
 * For a case neither the native kernel nor the wasm kernel below it supports: expects the native
 * kernel to hand it to the wasm kernel (fallback counted with `reason`, no native call), the wasm
 * kernel's own error (`error`) to reach the caller, and no tensor or data id left over.
 */
export async function expectFallbackThrows(fn: () => tf.Tensor | tf.Tensor[], kernel: string, reason: RegExp, error: RegExp): Promise<void> {
  await tf.setBackend('wasm');
  const backend = tf.backend() as unknown as NativeTestBackend;
  const tensors = tf.memory().numTensors;
  const dataIds = backend.numDataIds();
  resetNativeKernelStats();
  expect(() => tf.tidy(fn)).toThrow(error);
  const stats = nativeKernelStats()[kernel];
  expect(stats?.fallback ?? 0, `${kernel}: fallbacks`).toBeGreaterThan(0);
  expect(stats?.native ?? 0, `${kernel}: native calls`).toBe(0);
  expect(Object.keys(stats?.reasons ?? {}).join('; ')).toMatch(reason);
  expect(tf.memory().numTensors, 'tensors left over').toBe(tensors);
  expect(backend.numDataIds(), 'backend data ids left over').toBe(dataIds);
}
