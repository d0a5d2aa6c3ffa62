import { afterEach, describe, expect, it, vi } from 'vitest';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { formatProgress, progressLines, progressReporter, type ProgressEvent } from './progress';
import { resolveCacheDir } from './cache-dir';

describe('progressReporter', () => {
  it('forwards every event and draws a bar only on a TTY', () => {
    const seen: ProgressEvent[] = [];
    const written: string[] = [];
    const tty = { isTTY: true, write: (t: string) => written.push(t) };
    const report = progressReporter((e) => seen.push(e), tty);
    report({ phase: 'download', file: 'a.tgz', loaded: 50, total: 100 });
    report({ phase: 'download', file: 'a.tgz', loaded: 100, total: 100 });
    report({ phase: 'download', file: 'a.tgz', loaded: 100, total: 100 }); // a repeated end: not drawn again
    expect(seen).toHaveLength(3);
    // "\r\x1b[K": back to the line's start and erase it, so no tail of a longer earlier line survives.
    expect(written).toEqual([`\r\x1b[K[${'='.repeat(14)}>${' '.repeat(15)}]  50% download a.tgz`, `\r\x1b[K[${'='.repeat(30)}] 100% download a.tgz\n`]);
    const quiet: string[] = [];
    progressReporter(undefined, { isTTY: false, write: (t: string) => quiet.push(t) })({ phase: 'decode', file: 'x', loaded: 1, total: 2 });
    expect(quiet).toEqual([]);
  });

  it('progressLines writes whole lines (no carriage return, no JSON): at the start, every 10 % and the end', () => {
    const lines: string[] = [];
    const report = progressLines({ isTTY: false, write: (t: string) => lines.push(t) });
    for (let loaded = 0; loaded <= 1000; loaded += 25) report({ phase: 'download', file: 'a.tgz', loaded, total: 1000 });
    report({ phase: 'decode', file: 'x', loaded: 1 });
    report({ phase: 'decode', file: 'x', loaded: 20e6 }); // same 50 MB step: no line
    report({ phase: 'decode', file: 'x', loaded: 60e6 });
    expect(lines.map((l) => l.replace(/\[[=> ]+\]/, '[bar]'))).toEqual([
      ...[0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100].map((p) => `[bar] ${String(p).padStart(3)}% download a.tgz\n`),
      'decode x: 0.0 MB\n',
      'decode x: 60.0 MB\n',
    ]);
    expect(lines.join('')).not.toMatch(/\r|\{/);
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
