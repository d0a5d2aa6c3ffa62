import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runMia } from '../test-utils/run-mia';
import { DirectoryArtifactStore } from './artifact-store';
import { MOVE_CACHE_HINT } from './model-store';

const dir = mkdtempSync(join(tmpdir(), 'mia-writable-'));
afterAll(() => {
  chmodSync(join(dir, 'locked'), 0o700);
  rmSync(dir, { recursive: true, force: true });
});
const KEY = '0123456789abcdef'.repeat(4);
const bytes = new TextEncoder().encode('weights');
// root ignores directory permissions, so a read-only directory stops no write there.
const isRoot = process.getuid?.() === 0;
mkdirSync(join(dir, 'locked'));

describe('a cache directory that cannot be written', () => {
  it('under a regular file: names the directory as not writable with the hint; reads find nothing, nothing is called corrupted', async () => {
    writeFileSync(join(dir, 'file'), 'not a directory');
    const root = join(dir, 'file', 'cache', 'models');
    const store = new DirectoryArtifactStore(root, { notWritableHint: MOVE_CACHE_HINT });
    const message = `the cache directory ${root} is not writable (a part of the path is a file, not a directory: ENOTDIR); use another cache directory with --cache-dir <dir> (CLI) or the environment variable MIA_CACHE_DIR=<dir> (default ~/.cache/mia)`;
    await expect(store.ensureWritable()).rejects.toThrow(message);
    await expect(store.write(KEY, { 'a.bin': bytes }, {})).rejects.toThrow(message);
    await expect(store.claim(KEY)).rejects.toThrow(message);
    const corrupted: string[][] = [];
    expect(await store.read(KEY, { onCorrupted: (p) => corrupted.push([...p]) })).toBeUndefined();
    expect(corrupted).toEqual([]);
  });

  it.skipIf(isRoot)('read-only (chmod 500): not writable (permission denied), while its complete entries are still read', async () => {
    const root = join(dir, 'locked', 'models');
    const store = new DirectoryArtifactStore(root, { notWritableHint: 'move it' });
    await store.write(KEY, { 'a.bin': bytes }, { label: 'kept' });
    chmodSync(root, 0o500);
    try {
      await expect(store.ensureWritable()).rejects.toThrow(`the cache directory ${root} is not writable (permission denied: EACCES); move it`);
      await expect(store.claim('f'.repeat(64))).rejects.toThrow(/is not writable \(permission denied: EACCES\); move it$/);
      expect((await store.read(KEY))?.manifest.meta).toEqual({ label: 'kept' });
    } finally {
      chmodSync(root, 0o700);
    }
  });
  if (isRoot)
    it.skip('read-only (chmod 500): skipped because tests run as root, whom permissions do not stop; the ENOTDIR case above covers the message', () => {});

  it('mia run on an unwritable cache exits 1 with that message before training anything', async () => {
    const cache = join(dir, 'file', 'cache');
    const config = join(dir, 'tiny.json');
    writeFileSync(
      config,
      JSON.stringify({
        name: 'tiny',
        scale: 'smoke',
        dataset: { name: 'purchaseLike', size: 400 },
        partition: { preset: 'CCL4', maxPerRole: 50 },
        model: { name: 'mlp', options: { hidden: [8] } },
        training: { epochs: 1, batchSize: 25, lr: 0.1 },
        defenses: [{ name: 'none' }],
        attacks: ['loss'],
      }),
    );
    const run = await runMia(['--backend', 'cpu', 'run', config, '--out', join(dir, 'out')], { env: { MIA_CACHE_DIR: cache }, timeout: 180_000 });
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr).toContain(
      `mia: the cache directory ${join(cache, 'models')} is not writable (a part of the path is a file, not a directory: ENOTDIR); use another cache directory with --cache-dir <dir> (CLI) or the environment variable MIA_CACHE_DIR=<dir>`,
    );
    expect(run.stderr).not.toMatch(/^training /m);
  }, 200_000);
});
