import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DirectoryArtifactStore } from './artifact-store';
import { HOST_TAG } from './process-owner';
import { describeLeftover } from './leftovers';
import { temporaryName, temporaryOwner } from './names';

const dir = mkdtempSync(join(tmpdir(), 'mia-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const KEY = '0123456789abcdef'.repeat(4);
const bytes = (text: string) => new TextEncoder().encode(text);

describe('DirectoryArtifactStore', () => {
  it('reports what is wrong with a corrupted entry, replaces it on write, and keeps a complete one', async () => {
    const store = new DirectoryArtifactStore(join(dir, 'a'));
    expect(await store.write(KEY, { 'a.bin': bytes('first') }, {})).toBe('written');
    expect(await store.write(KEY, { 'a.bin': bytes('second') }, {})).toBe('existing'); // the first copy is kept
    expect(new TextDecoder().decode((await store.read(KEY))!.files.get('a.bin'))).toBe('first');
    const entry = join(dir, 'a', KEY.slice(0, 2), KEY);
    const problems: string[][] = [];
    const onCorrupted = (p: readonly string[]) => problems.push([...p]);
    writeFileSync(join(entry, 'a.bin'), 'firsT');
    expect(await store.read(KEY, { onCorrupted })).toBeUndefined();
    writeFileSync(join(entry, 'a.bin'), 'fir');
    expect(await store.read(KEY, { onCorrupted })).toBeUndefined();
    writeFileSync(join(entry, 'manifest.json'), '{"key": "01", "files": {');
    expect(await store.read(KEY, { onCorrupted })).toBeUndefined();
    writeFileSync(join(entry, 'manifest.json'), '{"key": "01"}');
    expect(await store.read(KEY, { onCorrupted })).toBeUndefined();
    rmSync(join(entry, 'manifest.json'));
    expect(await store.read(KEY, { onCorrupted })).toBeUndefined();
    expect(problems).toEqual([
      ['a.bin: SHA-256 mismatch'],
      ['a.bin: 3 bytes, manifest says 5'],
      ['manifest.json is not valid JSON'],
      ['manifest.json lists no files'],
      ['manifest.json missing'],
    ]);
    expect(await store.verify(KEY)).toEqual({ key: KEY, ok: false, problems: ['manifest.json missing'] });
    expect(await store.write(KEY, { 'a.bin': bytes('third') }, {})).toBe('written'); // the corrupted entry is replaced
    expect((await store.verify(KEY)).ok).toBe(true);
    await store.remove(KEY);
    expect(await store.read(KEY, { onCorrupted })).toBeUndefined();
    expect(problems).toHaveLength(5); // a missing entry is not a corrupted one
    expect(await store.verify(KEY)).toEqual({ key: KEY, ok: false, problems: ['missing'] });
    expect(readdirSync(join(dir, 'a')).filter((n) => n.startsWith('.tmp-'))).toEqual([]);
    await expect(store.write(KEY, { 'manifest.json': bytes('x') }, {})).rejects.toThrow('DirectoryArtifactStore.write: bad file name "manifest.json"');
    await expect(store.read('not-a-key')).rejects.toThrow('DirectoryArtifactStore: key must be a hex digest, got "not-a-key"');
  });

  it('names temporaries after their owner; lists and sweeps only the stale ones', async () => {
    const name = temporaryName(KEY);
    expect(name).toMatch(new RegExp(`^\\.tmp-0123456789ab-${HOST_TAG}-${process.pid}-[0-9a-f]{8}$`));
    expect(temporaryOwner(name)).toEqual({ host: HOST_TAG, pid: process.pid });
    expect(temporaryOwner('.tmp-0123456789ab-4242-deadbeef')).toBeUndefined(); // the older format: age decides
    expect(temporaryOwner('ab')).toBeUndefined();
    const root = join(dir, 'b');
    const store = new DirectoryArtifactStore(root);
    const mine = join(root, name); // this process is alive: in progress
    const old = join(root, '.tmp-0123456789ab-4242-deadbeef'); // no owner, two hours old: stale
    const dead = join(root, `.tmp-0123456789ab-${HOST_TAG}-999999999-00000000`); // no such pid: stale
    for (const d of [mine, old, dead]) mkdirSync(d, { recursive: true });
    writeFileSync(join(dead, 'model.bin'), new Uint8Array(2048));
    const hours2 = (Date.now() - 2 * 3_600_000) / 1000;
    utimesSync(old, hours2, hours2);
    mkdirSync(join(root, '7f'));
    const found = await store.leftovers();
    expect(found.map((l) => [l.path, l.stale])).toEqual(
      [
        [old, true],
        [dead, true],
        [mine, false],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    expect(describeLeftover(found.find((l) => l.path === dead)!)).toBe(
      `${dead.split('/').pop()}: unfinished write, 2.0 kB, pid 999999999 on this host, stale (its process is gone or it expired)`,
    );
    const { removed, kept } = await store.sweep();
    expect(removed.map((l) => l.path).sort()).toEqual([old, dead].sort());
    expect(kept.map((l) => l.path)).toEqual([mine]);
    expect(readdirSync(root)).toEqual([name]); // the empty prefix directory 7f is gone too
  });
});
