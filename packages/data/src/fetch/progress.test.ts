import { afterEach, describe, expect, it, vi } from 'vitest';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { formatProgress, progressReporter, type ProgressEvent } from './progress';
import { resolveCacheDir } from './cache-dir';

describe('progressReporter', () => {
  it('forwards every event and draws a bar only on a TTY', () => {
    const seen: ProgressEvent[] = [];
    const written: string[] = [];
    const tty = { isTTY: true, write: (t: string) => written.push(t) };
    const report = progressReporter((e) => seen.push(e), tty);
    report({ phase: 'download', file: 'a.tgz', loaded: 50, total: 100 });
    report({ phase: 'download', file: 'a.tgz', loaded: 100, total: 100 });
    expect(seen).toHaveLength(2);
    expect(written).toEqual([`\r[${'='.repeat(14)}>${' '.repeat(15)}]  50% download a.tgz`, `\r[${'='.repeat(30)}] 100% download a.tgz\n`]);
    const quiet: string[] = [];
    progressReporter(undefined, { isTTY: false, write: (t: string) => quiet.push(t) })({ phase: 'decode', file: 'x', loaded: 1, total: 2 });
    expect(quiet).toEqual([]);
  });

  it('formats events without a total in MB', () => {
    expect(formatProgress({ phase: 'download', file: 'f', loaded: 2_500_000 })).toBe('download f: 2.5 MB');
  });
});

describe('resolveCacheDir', () => {
  afterEach(() => vi.unstubAllEnvs());
  it('prefers the argument, then MIA_CACHE_DIR, then ~/.cache/mia', () => {
    vi.stubEnv('MIA_CACHE_DIR', '/tmp/mia-env-cache');
    expect(resolveCacheDir('rel/dir')).toBe(resolve('rel/dir'));
    expect(resolveCacheDir()).toBe('/tmp/mia-env-cache');
    vi.stubEnv('MIA_CACHE_DIR', '');
    expect(resolveCacheDir()).toBe(join(homedir(), '.cache', 'mia'));
  });
});
