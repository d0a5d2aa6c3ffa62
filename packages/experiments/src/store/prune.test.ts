import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runMia } from '../test-utils/run-mia';
import { DirectoryArtifactStore } from './artifact-store';
import { HOST_TAG } from './process-owner';
import { temporaryName } from './names';
import { applyPrune, parseAge, planPrune } from './prune';

const dir = mkdtempSync(join(tmpdir(), 'mia-prune-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const key = (i: number) => `${i.toString(16).padStart(2, '0')}`.repeat(32);
const GOOD = [1, 2, 3].map(key);
const OLD = GOOD[0]!;
const CORRUPT = key(0xc0);
const DAY = 86_400_000;

/**
 * A cache as a user has it after a few runs: three good models (one cached 40 days ago), one entry
 * whose weights were damaged on disk, one unfinished write of a killed process (stale) and one of
 * this live process (in progress).
 */
async function fillCache(cacheDir: string) {
  const models = join(cacheDir, 'models');
  const store = new DirectoryArtifactStore(models);
  for (const k of [...GOOD, CORRUPT]) await store.write(k, { 'model.bin': new Uint8Array(4096).fill(7) }, { label: `none/${k.slice(0, 2)}` });
  writeFileSync(join(models, CORRUPT.slice(0, 2), CORRUPT, 'model.bin'), new Uint8Array(4096).fill(8)); // same size, other bytes
  const manifestPath = join(models, OLD.slice(0, 2), OLD, 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { createdAt: string };
  writeFileSync(manifestPath, JSON.stringify({ ...manifest, createdAt: new Date(Date.now() - 40 * DAY).toISOString() }));
  const dead = join(models, `.tmp-${'ab'.repeat(6)}-${HOST_TAG}-999999999-00000000`); // no such pid: stale
  mkdirSync(dead);
  writeFileSync(join(dead, 'model.bin'), new Uint8Array(1024));
  const live = join(models, temporaryName(key(9))); // this process: in progress
  mkdirSync(live);
  return { store, models, dead, live, entry: (k: string) => join(models, k.slice(0, 2), k) };
}

describe('pruning the model cache', () => {
  it('by default removes only the corrupted entry and the stale leftover; --models (with an age) removes good models', async () => {
    const { store, dead, live, entry } = await fillCache(join(dir, 'unit'));
    const plan = await planPrune(store);
    expect(plan.entries.map((e) => [e.key, e.reason, e.problems])).toEqual([[CORRUPT, 'corrupted', ['model.bin: SHA-256 mismatch']]]);
    expect(plan.leftovers.map((l) => l.path)).toEqual([dead]);
    expect(plan.inProgress.map((l) => l.path)).toEqual([live]);
    expect(plan.keptEntries).toBe(3);
    // 4096 bytes of weights + its manifest, and the 1024-byte unfinished write.
    expect(plan.bytes).toBe(4096 + readFileSync(join(entry(CORRUPT), 'manifest.json')).byteLength + 1024);
    await applyPrune(store, plan);
    for (const k of GOOD) expect((await store.verify(k)).ok).toBe(true);
    expect(existsSync(entry(CORRUPT))).toBe(false);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(live)).toBe(true);

    const old = await planPrune(store, { models: true, olderThanMs: 30 * DAY });
    expect(old.entries.map((e) => [e.key, e.reason])).toEqual([[OLD, 'model']]);
    expect(old.keptEntries).toBe(2);
    const all = await planPrune(store, { models: true });
    expect(all.entries.map((e) => e.key).sort()).toEqual([...GOOD].sort());
    await applyPrune(store, all);
    expect(await store.list()).toEqual([]);
    await expect(planPrune(store, { olderThanMs: DAY })).rejects.toThrow('planPrune: olderThanMs selects trained models, so it needs models: true');
  });

  it('parses ages and names the option when one is malformed', () => {
    expect(parseAge('30d', '--older-than')).toBe(30 * DAY);
    expect(parseAge('12h', '--older-than')).toBe(12 * 3_600_000);
    expect(parseAge('1.5m', '--older-than')).toBe(90_000);
    expect(() => parseAge('30', '--older-than')).toThrow('--older-than must be an age such as 30d, 12h or 45m, got "30"');
  });

  it('mia cache prune: --dry-run removes nothing, the default keeps every good model, --models removes them', async () => {
    const cacheDir = join(dir, 'cli');
    const { store, dead, entry } = await fillCache(cacheDir);
    const mia = (...args: string[]) => runMia(args, { env: { MIA_CACHE_DIR: cacheDir }, timeout: 120_000 });
    const verify = await mia('cache', 'verify');
    expect(verify.status).toBe(1); // a corrupted entry
    expect(verify.stdout).toMatch(
      /^CORRUPTED c0c0c0c0c0c0c0c0 none\/c0: model\.bin: SHA-256 mismatch \(retrained on the next run; `mia cache verify --remove` or `mia cache prune` removes it; neither removes a good model\)$/m,
    );
    expect(verify.stdout).toMatch(
      /^LEFTOVER \.tmp-abab.*stale .*\(`mia cache verify --remove` or `mia cache prune` removes it; neither removes a good model\)$/m,
    );

    const dry = await mia('cache', 'prune', '--dry-run');
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^would remove c0c0c0c0c0c0c0c0 none\/c0: corrupted \(model\.bin: SHA-256 mismatch\), \d+\.\d kB$/m);
    expect(dry.stdout).toMatch(/^would remove \.tmp-abab.*: unfinished write, 1\.0 kB, pid 999999999 on this host, stale/m);
    expect(dry.stdout).toMatch(
      /^would remove 1 corrupted entries, 0 trained models and 1 stale leftovers \(\d+\.\d kB\) from .*; kept 3 trained models \(`--models` removes them\)$/m,
    );
    expect(existsSync(entry(CORRUPT))).toBe(true);
    expect(existsSync(dead)).toBe(true);

    const prune = await mia('cache', 'prune');
    expect(prune.status, prune.stderr).toBe(0);
    expect(prune.stdout).toMatch(/^removed 1 corrupted entries, 0 trained models and 1 stale leftovers .*kept 3 trained models/m);
    for (const k of GOOD) expect((await store.verify(k)).ok).toBe(true);
    expect(existsSync(entry(CORRUPT))).toBe(false);
    expect(existsSync(dead)).toBe(false);

    const usage = await mia('cache', 'prune', '--older-than', '30d');
    expect(usage.status).toBe(1);
    expect(usage.stderr).toMatch(/^mia: cache prune: --older-than 30d selects trained models to remove, so it needs --models$/m);
    const old = await mia('cache', 'prune', '--models', '--older-than', '30d');
    expect(old.stdout).toMatch(/^removed 0101010101010101 none\/01: trained model from .*, \d+\.\d kB$/m);
    expect(old.stdout).toMatch(/removed 0 corrupted entries, 1 trained models and 0 stale leftovers .*; kept 2 trained models$/m);
    const all = await mia('cache', 'prune', '--models');
    expect(all.stdout).toMatch(/removed 0 corrupted entries, 2 trained models and 0 stale leftovers .*; kept 0 trained models$/m);
    expect(await store.list()).toEqual([]);
    const help = await mia('cache', 'prune', '--help');
    expect(help.stdout).toMatch(/trained models stay unless --models is given/);
  }, 180_000);
});
