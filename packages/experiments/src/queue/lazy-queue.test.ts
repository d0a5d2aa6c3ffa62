import { describe, expect, it, vi } from 'vitest';

// Records which queue libraries get imported (the mocks stand in for them).
const loaded = vi.hoisted(() => [] as string[]);
vi.mock('bullmq', () => {
  loaded.push('bullmq');
  return { Queue: class {}, Worker: class {}, UnrecoverableError: class {}, WaitingError: class {} };
});
vi.mock('ioredis', () => {
  loaded.push('ioredis');
  return { Redis: class {} };
});

describe('lazy queue', () => {
  it("import '@mia/experiments' loads neither bullmq nor ioredis; '@mia/experiments/queue' loads both", async () => {
    const root = await import('@mia/experiments');
    expect(typeof root.runExperiment).toBe('function');
    expect(loaded).toEqual([]);
    // The control: the queue entry point does load them (so the mocks would have seen the root's imports).
    const queue = await import('@mia/experiments/queue');
    expect(typeof queue.startQueueWorker).toBe('function');
    expect(loaded.sort()).toEqual(['bullmq', 'ioredis']);
  });

  it('the CLI parses worker options without the queue libraries', async () => {
    vi.resetModules();
    loaded.length = 0;
    const { parseWorkerOptions } = await import('./worker-options');
    expect(parseWorkerOptions({ queue: 'redis://127.0.0.1:6379/1', artifacts: '/tmp/a' }).concurrency).toBe(1);
    expect(loaded).toEqual([]);
  });
});
