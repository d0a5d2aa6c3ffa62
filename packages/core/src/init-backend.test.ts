import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { BackendError } from './errors';
import { initBackend } from './init-backend';

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
      loaders: { wasm: async () => { called += 1; throw new Error('not here'); }, cpu: async () => { called += 1; return import('@tensorflow/tfjs-backend-cpu'); } },
    });
    expect(called).toBe(2);
    expect(result.name).toBe('cpu');
    expect(result.skipped).toEqual([{ name: 'wasm', reason: 'not here' }]);
  });
});
