import { BackendError } from '@mia/core';
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { resolveThreads } from './resolve-threads';
import { useNativeTraining } from './use-native-training';

describe('resolveThreads', () => {
  it('takes the option first, then MIA_NUM_THREADS, then every core', () => {
    expect.hasAssertions();
    expect(resolveThreads(3, { MIA_NUM_THREADS: '5' })).toBe(3);
    expect(resolveThreads(undefined, { MIA_NUM_THREADS: '5' })).toBe(5);
    expect(resolveThreads(undefined, { MIA_NUM_THREADS: '' })).toBe(availableParallelism());
    expect(resolveThreads(undefined, {})).toBe(availableParallelism());
  });

  it('rejects an option that is not a positive integer, naming it and the value', () => {
    expect.hasAssertions();
    for (const bad of [0, -2, 1.5, NaN, Infinity]) {
      expect(() => resolveThreads(bad, {})).toThrow(BackendError);
      expect(() => resolveThreads(bad, {})).toThrow(`useNativeTraining: threads must be a positive integer, got ${String(bad)}`);
    }
  });

  it('rejects a MIA_NUM_THREADS that is not a positive integer, naming it and the value', () => {
    expect.hasAssertions();
    for (const bad of ['0', 'two', '2.5', '-1', ' ']) {
      expect(() => resolveThreads(undefined, { MIA_NUM_THREADS: bad })).toThrow(BackendError);
      expect(() => resolveThreads(undefined, { MIA_NUM_THREADS: bad })).toThrow(`MIA_NUM_THREADS must be a positive integer, got ${JSON.stringify(bad)}`);
    }
  });

  it('useNativeTraining rejects bad threads, convLayout, convAlgorithm and keepFreedMemory options before touching the addon', async () => {
    expect.hasAssertions();
    await expect(useNativeTraining({ threads: 0 })).rejects.toThrow(/threads must be a positive integer, got 0/);
    await expect(useNativeTraining({ convLayout: 'tiled' as 'nhwc' })).rejects.toThrow(/options\.convLayout must be 'nhwc' or 'blocked', got "tiled"/);
    await expect(useNativeTraining({ keepFreedMemory: 'no' as unknown as boolean })).rejects.toThrow(/options\.keepFreedMemory must be a boolean, got "no"/);
    await expect(useNativeTraining({ convAlgorithm: 'winograd' as 'auto' })).rejects.toThrow(
      /options\.convAlgorithm must be 'auto' or 'direct', got "winograd"/,
    );
    const saved = process.env['MIA_CONV_ALGORITHM'];
    process.env['MIA_CONV_ALGORITHM'] = 'fast';
    try {
      await expect(useNativeTraining()).rejects.toThrow(/MIA_CONV_ALGORITHM must be 'auto' or 'direct', got "fast"/);
    } finally {
      if (saved === undefined) delete process.env['MIA_CONV_ALGORITHM'];
      else process.env['MIA_CONV_ALGORITHM'] = saved;
    }
  });
});
