import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runMia } from '../test-utils/run-mia';
import { DirectoryArtifactStore } from './artifact-store';
import { HOST } from './process-owner';
import { acquireClaim } from './unit-claim';

// Real concurrent processes on one store (test-utils/store-test-child.ts). `MIA_CONCURRENCY_ROUNDS` repeats the
// races (1 round in the suite, to keep it fast); the 50-runs-in-a-row check loops this file with
// MIA_CONCURRENCY_ROUNDS=2 (docs/decisions/0042-shared-cache-claims-and-installable-cli.md).
const ROUNDS = Number(process.env.MIA_CONCURRENCY_ROUNDS ?? 1);
const root = join(__dirname, '..', '..', '..', '..');
const child = join(__dirname, '..', 'test-utils', 'store-test-child.ts');
const dir = mkdtempSync(join(tmpdir(), 'mia-store-race-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const KEY = 'ab'.repeat(32);

interface ChildResult {
  pid: number;
  ready?: boolean;
  tag?: string;
  outcome?: string;
  waited?: boolean;
  read?: string;
  held?: string;
}

/** Starts a child process; resolves with its JSON line(s) and exit status. */
function start(...args: string[]) {
  const proc = spawn(process.execPath, ['--conditions=@mia/source', '--import', 'tsx', child, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const done = new Promise<{ status: number | null; signal: string | null; result: ChildResult | undefined; stderr: string }>((resolve) =>
    proc.on('close', (status, signal) =>
      resolve({
        status,
        signal,
        stderr: err,
        result: out
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as ChildResult)
          .at(-1),
      }),
    ),
  );
  const line = async () => {
    while (!out.includes('\n')) {
      if (proc.exitCode !== null) throw new Error(`child exited early: ${err}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return JSON.parse(out.split('\n')[0]!) as ChildResult;
  };
  return { proc, done, line };
}

/** Starts `n` children that wait at a barrier, then lets them all go at once. */
async function race(n: number, args: (i: number, go: string) => string[]) {
  const go = join(dir, `go-${Math.random().toString(36).slice(2)}`);
  const children = Array.from({ length: n }, (_, i) => start(...args(i, go)));
  for (const c of children) expect((await c.line()).ready).toBe(true);
  writeFileSync(go, '');
  const ends = await Promise.all(children.map((c) => c.done));
  for (const e of ends) expect(e.status, e.stderr).toBe(0);
  return ends.map((e) => e.result!);
}

const temporaries = (store: string) => (existsSync(store) ? readdirSync(store).filter((n) => n.startsWith('.tmp-')) : []);

describe('DirectoryArtifactStore under real concurrent processes', () => {
  it.each(Array.from({ length: ROUNDS }, (_, i) => i))(
    '8 writers of one key at once (round %i): none fails, one publishes, all read its copy',
    async (round) => {
      const store = join(dir, `writers-${round}`);
      const results = await race(8, (i, go) => ['write', store, KEY, `writer${i}`, go]);
      const winners = results.filter((r) => r.outcome === 'written');
      expect(winners).toHaveLength(1);
      expect(
        results.filter((r) => r.outcome === 'existing'),
        JSON.stringify(results),
      ).toHaveLength(7);
      expect(new Set(results.map((r) => r.read))).toEqual(new Set([winners[0]!.tag]));
      expect((await new DirectoryArtifactStore(store).verify(KEY)).ok).toBe(true);
      expect(temporaries(store)).toEqual([]);
    },
    180_000,
  ); // real child processes: minutes when the machine is loaded

  it.each(Array.from({ length: ROUNDS }, (_, i) => i))(
    '3 processes on one unit (round %i): trained once, the others wait and read the result',
    async (round) => {
      const store = join(dir, `claims-${round}`);
      const results = await race(3, (i, go) => ['train', store, KEY, `trainer${i}`, go, '1500']);
      const trained = results.filter((r) => r.outcome === 'trained, written');
      expect(trained).toHaveLength(1);
      const others = results.filter((r) => r !== trained[0]);
      // They started together, so each found the claim held, waited, and then read the trained unit.
      for (const r of others) expect(r).toMatchObject({ outcome: 'hit after waiting', waited: true, read: trained[0]!.tag });
      expect(readdirSync(join(store, '.claims'))).toEqual([]);
    },
    180_000,
  ); // real child processes: minutes when the machine is loaded

  it('a claim of a killed process is taken over at once; an expired one of another host too; a live one is waited for', async () => {
    const store = join(dir, 'stale');
    const holder = start('hold', store, KEY);
    expect((await holder.line()).held).toBe(KEY);
    holder.proc.kill('SIGKILL');
    await holder.done;
    const t0 = Date.now();
    const claim = await acquireClaim(join(store, '.claims'), KEY, { pollMs: 50 }); // TTL 5 min: only the dead pid makes it stale
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(claim.holder.pid).toBe(process.pid);
    await claim.release();

    const claims = join(dir, 'stale-host', '.claims');
    mkdirSync(claims, { recursive: true });
    const other = (expiresAt: number) =>
      JSON.stringify({ pid: 1, host: `${HOST}-elsewhere`, nonce: 'n', acquiredAt: new Date(0).toISOString(), expiresAt: new Date(expiresAt).toISOString() });
    writeFileSync(join(claims, `${KEY}.json`), other(Date.now() - 1000));
    await (await acquireClaim(claims, KEY, { pollMs: 50 })).release();
    writeFileSync(join(claims, `${KEY}.json`), other(Date.now() + 60_000));
    const waits: number[] = [];
    await expect(acquireClaim(claims, KEY, { pollMs: 20, signal: AbortSignal.timeout(300), onWait: (h) => waits.push(h.pid) })).rejects.toThrow(
      /aborted while waiting/,
    );
    expect(waits).toEqual([1]);
    writeFileSync(join(claims, `${KEY}.json`), '{"pid": 1, "host"'); // a corrupted claim file: waited for until older than the TTL
    await expect(acquireClaim(claims, KEY, { pollMs: 20, signal: AbortSignal.timeout(200) })).rejects.toThrow(/aborted/);
    const late = await acquireClaim(claims, KEY, { pollMs: 20, ttlMs: 50 });
    await late.release();
    await expect(acquireClaim(claims, KEY, { ttlMs: 0 })).rejects.toThrow('acquireClaim: ttlMs must be a positive number, got 0');
  }, 180_000); // real child processes: minutes when the machine is loaded

  it('SIGKILL during a write leaves a .tmp-* that `mia cache verify` lists and `mia cache prune` removes, with empty prefix directories', async () => {
    const cache = join(dir, 'killed');
    const store = join(cache, 'models');
    const writer = start('die-mid-write', store, KEY);
    const killed = await writer.done;
    expect(killed.signal).toBe('SIGKILL');
    const left = temporaries(store);
    expect(left).toHaveLength(1);
    const leftovers = await new DirectoryArtifactStore(store).leftovers();
    expect(leftovers).toMatchObject([{ kind: 'temporary', bytes: 6 * 1024 * 1024, owner: { pid: writer.proc.pid }, stale: true }]);
    // An empty prefix directory, as a removed entry leaves behind.
    mkdirSync(join(store, 'cd'), { recursive: true });
    const mia = (...args: string[]) => runMia(args, { env: { MIA_CACHE_DIR: cache }, timeout: 120_000 });
    const verify = await mia('cache', 'verify');
    expect(verify.status, verify.stderr).toBe(0);
    expect(verify.stdout).toMatch(
      new RegExp(
        `^LEFTOVER ${left[0]!.replace(/[.]/g, '\\.')}: unfinished write, 6\\.0 MB, pid \\d+ on this host, stale .*\\(\`mia cache verify --remove\` or \`mia cache prune\` removes it; neither removes a good model\\)$`,
        'm',
      ),
    );
    expect(verify.stdout).toMatch(/0 entries checked, 0 corrupted; 1 leftovers, 1 stale/);
    const prune = await mia('cache', 'prune');
    expect(prune.status, prune.stderr).toBe(0);
    expect(prune.stdout).toMatch(/removed 0 corrupted entries, 0 trained models and 1 stale leftovers \(6\.0 MB\)/);
    expect(readdirSync(store)).toEqual([]);
  }, 120_000);
});
