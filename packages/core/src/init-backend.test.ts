import * as tf from '@tensorflow/tfjs-core';
import { MathBackendCPU } from '@tensorflow/tfjs-backend-cpu';
import { describe, expect, it, vi } from 'vitest';
import { BackendError } from './errors';
import { chosenBackend, initBackend } from './init-backend';

describe('initBackend', () => {
  it('skips tfjs-node when it is not installed and reports why', async () => {
    const skipped: string[] = [];
    const result = await initBackend({ prefer: ['tensorflow', 'cpu'], onSkip: (name) => skipped.push(name) });
    expect(result.name).toBe('cpu');
    expect(tf.getBackend()).toBe('cpu');
    expect(result.skipped.map((s) => s.name)).toEqual(['tensorflow']);
    expect(skipped).toEqual(['tensorflow']);
    expect(result.skipped[0]!.reason.length).toBeGreaterThan(0);
  });

  it('chosen cpu prints no "install tfjs-node" banner; other tfjs warnings still print', async () => {
    const banner = /looks like you are running TensorFlow\.js in Node\.js/;
    // A fresh cpu backend each time (the banner comes once per backend instance).
    const freshCpu = () => {
      tf.removeBackend('cpu');
      tf.registerBackend('cpu', () => new MathBackendCPU(), 1);
    };
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      freshCpu();
      await tf.setBackend('cpu');
      tf.tensor([1, 2]).dispose();
      expect(warn.mock.calls.some((c) => banner.test(String(c[0])))).toBe(true); // the control: plain tfjs prints it
      warn.mockClear();

      freshCpu();
      await initBackend({ prefer: ['cpu'] });
      tf.tensor([1, 2]).dispose();
      tf.backend_util.warn('a real warning'); // how tfjs reports everything else
      expect(warn.mock.calls.map((c) => String(c[0]))).toEqual(['a real warning']);
    } finally {
      warn.mockRestore();
    }
  });

  it('fails with a BackendError listing every failure when nothing loads', async () => {
    const p = initBackend({ prefer: ['tensorflow-gpu', 'tensorflow'] });
    await expect(p).rejects.toSatisfy((e: unknown) => BackendError.isInstance(e));
    await expect(initBackend({ prefer: ['tensorflow-gpu'] })).rejects.toThrow(/no backend could be loaded: tensorflow-gpu \(/);
  });

  it('rejects an unknown backend name', async () => {
    await expect(initBackend({ prefer: ['gpu' as never] })).rejects.toThrow(/prefer must list names from .*got "gpu"/);
  });

  it('uses an injected loader (pnpm layouts) and reports a loader failure as a skip', async () => {
    let called = 0;
    const result = await initBackend({
      prefer: ['wasm', 'cpu'],
      loaders: {
        wasm: async () => {
          called += 1;
          throw new Error('not here');
        },
        cpu: async () => {
          called += 1;
          return import('@tensorflow/tfjs-backend-cpu');
        },
      },
    });
    expect(called).toBe(2);
    expect(result.name).toBe('cpu');
    expect(result.skipped).toEqual([{ name: 'wasm', reason: 'not here' }]);
  });

  it('tries native before wasm by default, passes threads to it, and reports the one it chose', async () => {
    const order: string[] = [];
    const fail = (name: string) => async () => {
      order.push(name);
      throw new Error(`${name} unavailable`);
    };
    let nativeOptions: unknown;
    const result = await initBackend({
      threads: 3,
      loaders: {
        'tensorflow-gpu': fail('tensorflow-gpu'),
        tensorflow: fail('tensorflow'),
        native: async () => {
          order.push('native');
          return {
            useNativeTraining: async (options: unknown) => {
              nativeOptions = options;
              throw new Error('no oneDNN here');
            },
          };
        },
        wasm: fail('wasm'),
        cpu: async () => {
          order.push('cpu');
          return import('@tensorflow/tfjs-backend-cpu');
        },
      },
    });
    expect(order).toEqual(['tensorflow-gpu', 'tensorflow', 'native', 'wasm', 'cpu']);
    expect(nativeOptions).toEqual({ threads: 3 });
    expect(result.skipped.find((s) => s.name === 'native')?.reason).toBe('no oneDNN here');
    expect(chosenBackend()).toBe('cpu');
  });

  it('rejects a thread count that is not a positive integer', async () => {
    await expect(initBackend({ prefer: ['cpu'], threads: 0 })).rejects.toThrow(/initBackend: threads must be a positive integer, got 0/);
  });
});
