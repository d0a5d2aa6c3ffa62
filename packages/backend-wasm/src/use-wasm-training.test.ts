import * as tf from '@tensorflow/tfjs-core';
import { BackendError } from '@mia/core';
import { afterEach, describe, expect, it } from 'vitest';
import { checkTfjsVersion, supportedTfjsRange } from './check-tfjs-version';
import { registerWasmTrainingKernels, unregisterWasmTrainingKernels } from './register-wasm-training-kernels';
import { guardMalloc } from './internals/guard-malloc';
import { useWasmTraining } from './use-wasm-training';

const expectedKernels = [
  'Conv2DBackpropFilter',
  'Conv2DBackpropInput',
  'BatchMatMul',
  'Tile',
  'Sum',
  'Mean',
  'MaxPoolGrad',
  'Identity',
  'Cast',
  'UnsortedSegmentSum',
  'Tanh',
  'FusedBatchNorm',
];

describe('useWasmTraining', () => {
  afterEach(() => {
    tf.env().reset();
  });

  it('sets the wasm backend and registers the training kernels', async () => {
    const info = await useWasmTraining();
    expect(info.backend).toBe('wasm');
    expect(tf.getBackend()).toBe('wasm');
    expect(info.kernels).toEqual(expectedKernels);
    expect(info.simd).toBe(true);
    expect(info.versions.core).toMatch(/^4\.22\./);
    for (const name of expectedKernels) expect(tf.getKernel(name, 'wasm')).toBeDefined();
  });

  it('is idempotent and can restore the stock kernels', async () => {
    await useWasmTraining();
    const ours = tf.getKernel('BatchMatMul', 'wasm')!.kernelFunc;
    expect(registerWasmTrainingKernels()).toEqual(expectedKernels);
    expect(tf.getKernel('BatchMatMul', 'wasm')!.kernelFunc).toBe(ours);
    expect(unregisterWasmTrainingKernels()).toEqual(expectedKernels);
    expect(tf.getKernel('BatchMatMul', 'wasm')!.kernelFunc).not.toBe(ours);
    expect(tf.getKernel('Conv2DBackpropFilter', 'wasm')).toBeUndefined();
    const marker = Symbol.for('@mia/backend-wasm.replacedGradient');
    for (const name of ['FusedBatchNorm', 'Mean']) expect((tf.getGradient(name) as unknown as Record<symbol, unknown>)[marker]).toBeUndefined();
    await useWasmTraining();
    expect(tf.getKernel('Conv2DBackpropFilter', 'wasm')).toBeDefined();
    for (const name of ['FusedBatchNorm', 'Mean']) expect((tf.getGradient(name) as unknown as Record<symbol, unknown>)[marker]).toBe(true);
  });

  it('fails with a BackendError when wasm SIMD is missing, unless allowed', async () => {
    tf.env().set('WASM_HAS_SIMD_SUPPORT', false);
    const error = await useWasmTraining().catch((e: unknown) => e);
    expect(BackendError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/useWasmTraining: .*no WebAssembly SIMD.*requireSimd: false/);
    await expect(useWasmTraining({ requireSimd: 'yes' as never })).rejects.toThrow(/requireSimd must be a boolean, got yes/);
    await expect(useWasmTraining({ freeGradientsEarly: 1 as never })).rejects.toThrow(/freeGradientsEarly must be a boolean, got 1/);
  });
});

describe('checkTfjsVersion', () => {
  it('accepts the pinned range', () => {
    expect(supportedTfjsRange).toBe('>=4.22.0 <4.23.0');
    expect(checkTfjsVersion({ core: '4.22.3', wasm: '4.22.0' })).toEqual({ core: '4.22.3', wasm: '4.22.0' });
  });

  it('rejects versions outside it with a BackendError naming package and version', () => {
    for (const [versions, pattern] of [
      [{ core: '4.21.0', wasm: '4.22.0' }, /tfjs-core must be >=4\.22\.0 <4\.23\.0 .*got 4\.21\.0/],
      [{ core: '4.22.0', wasm: '4.23.0-rc.1' }, /tfjs-backend-wasm must be .*got 4\.23\.0-rc\.1/],
      [{ core: '5.0.0', wasm: '5.0.0' }, /got 5\.0\.0/],
    ] as const) {
      let error: unknown;
      try {
        checkTfjsVersion(versions);
      } catch (e) {
        error = e;
      }
      expect(BackendError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(pattern);
    }
  });
});

describe('heap exhaustion', () => {
  it('a tensor of 4 GB or more throws a BackendError (stock tfjs wraps the size to 32 bits)', async () => {
    await useWasmTraining();
    let error: unknown;
    try {
      tf.zeros([1_100_000_000]); // 4.4e9 bytes; never allocated, so the heap does not grow
    } catch (e) {
      error = e;
    }
    expect(BackendError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/wasm heap is exhausted \(heap \d+ MB, max 4096 MB\) allocating 4197 MB; use a smaller batch/);
    const x = tf.ones([4]);
    expect(Array.from(x.dataSync())).toEqual([1, 1, 1, 1]);
    x.dispose();
  });

  it('a failed malloc (address 0), or no reserve left near the 4 GB limit, throws a BackendError', () => {
    const freed: number[] = [];
    const heap = { buffer: { byteLength: 2 ** 20 } };
    let reserveLeft = true;
    const fake = {
      wasm: {
        HEAPU8: heap,
        _malloc: (bytes: number) => (bytes > 2 ** 30 ? 0 : bytes === 64 * 2 ** 20 ? (reserveLeft ? 4096 : 0) : 64),
        _free: (address: number) => freed.push(address),
      },
    };
    guardMalloc(fake as never);
    expect(fake.wasm._malloc(10)).toBe(64);
    expect(() => fake.wasm._malloc(2 ** 31)).toThrow(/heap is exhausted \(heap 1 MB, max 4096 MB\) allocating 2048 MB/);
    // Near the limit, the allocation probes for 64 MB of contiguous space and frees the probe.
    heap.buffer.byteLength = 2 ** 32 - 2 ** 16;
    expect(fake.wasm._malloc(10)).toBe(64);
    expect(freed).toEqual([4096]);
    reserveLeft = false;
    expect(() => fake.wasm._malloc(10)).toThrow(/heap is exhausted/);
    expect(freed).toEqual([4096, 64]);
  });

  it('survives emscripten replacing its _malloc stub on the first call', () => {
    // Emscripten's Module._malloc starts as a stub that overwrites Module._malloc with the raw
    // export when first called; a guard wrapping the stub would vanish after one allocation.
    const raw = (bytes: number): number => (bytes > 2 ** 30 ? 0 : 64);
    const wasm = {
      HEAPU8: { buffer: { byteLength: 2 ** 20 } },
      asm: { malloc: raw, free: () => undefined },
      _malloc(bytes: number): number {
        wasm._malloc = raw;
        return raw(bytes);
      },
      _free: () => undefined,
    };
    guardMalloc({ wasm } as never);
    expect(wasm._malloc(10)).toBe(64);
    expect(() => wasm._malloc(2 ** 31)).toThrow(/heap is exhausted/);
  });
});
