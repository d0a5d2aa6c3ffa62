import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ExperimentResults } from '../run/results';
import { freePort, hasRedisServer, startRedisServer } from './redis-test-server';

// `mia sweep --queue` + `mia worker` as users run them (node + tsx on the sources) against a real
// redis-server on a random loopback port (Debian package `redis-server`, installed by .ci/run).
const root = join(__dirname, '..', '..', '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'mia-queue-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  stopRedis();
  rmSync(dir, { recursive: true, force: true });
});
const hasRedis = hasRedisServer();
let stopRedis: () => void = () => undefined;

interface Proc {
  child: ChildProcess;
  stderr: () => string;
  exited: Promise<number | null>;
  waitFor(re: RegExp, count?: number): Promise<void>;
}

/** Runs the CLI, keeping its stderr; `waitFor` resolves once `re` matched `count` times. */
function mia(args: string[], cacheDir: string): Proc {
  const child = spawn(process.execPath, ['--conditions=@mia/source', '--import', 'tsx', join(root, 'packages/experiments/src/cli/main.ts'), ...args], {
    cwd: root,
    env: { ...process.env, MIA_CACHE_DIR: cacheDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  child.stdout!.resume();
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const waitFor = async (re: RegExp, count = 1) => {
    const deadline = Date.now() + 90_000;
    while ((err.match(new RegExp(re.source, 'gm')) ?? []).length < count) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`never saw ${re} ×${count} (exit ${child.exitCode}); stderr:\n${err}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  return { child, stderr: () => err, exited, waitFor };
}

// Smoke-size sweep: 3 grid points = 6 units (target + shadow each), about a second of training each, so
// that the SIGKILL (sent within ~25 ms of the 'training' line) lands well inside a unit.
const sweep = {
  name: 'queue-sweep',
  scale: 'smoke',
  seed: 3,
  dataset: { name: 'purchaseLike', size: 1200 },
  partition: { preset: 'CCL4', maxPerRole: 100 },
  model: { name: 'mlp', options: { hidden: [64] } },
  training: { epochs: 10, batchSize: 16, lr: 0.1 },
  defenses: [{ name: 'ccl', label: 'CCQL', params: { concave: 'quadratic' }, grid: { alpha: [0.2, 0.5, 0.8] } }],
  attacks: ['loss', 'confidence'],
};
const labels = (text: string, re: RegExp) => [...text.matchAll(re)].map((m) => m[1]!);
const TRAINED = /^trained\s+(.+?) in [\d.]+ s/gm;
const TRAINING = /^training\s+(.+?) \(\d+ members\)$/gm;

describe('mia sweep --queue / mia worker: argument and connection errors', () => {
  it('a bad --queue URL and an unreachable Redis fail fast with a one-line reason', async () => {
    writeFileSync(join(dir, 'sweep.json'), JSON.stringify(sweep));
    // Started together (each is a CLI process); nothing listens on `closed`: a clear error instead
    // of reconnecting forever (the test timeout turns a hang into a failure).
    const closed = await freePort();
    const badUrl = mia(['sweep', join(dir, 'sweep.json'), '--queue', 'http://127.0.0.1:6379'], join(dir, 'c0'));
    const followAlone = mia(['sweep', join(dir, 'sweep.json'), '--follow'], join(dir, 'c0'));
    const badWorker = mia(['worker', '--queue', 'redis://127.0.0.1', '--artifacts', join(dir, 'a')], join(dir, 'c0'));
    const down = mia(['--backend', 'cpu', 'worker', '--queue', `redis://127.0.0.1:${closed}/0`, '--artifacts', join(dir, 'a')], join(dir, 'c0'));
    const reproduceBoth = mia(['reproduce', 'ccl-table1', '--queue', 'redis://127.0.0.1:6379', '--workers', '2'], join(dir, 'c0'));
    const reproduceDown = mia(['--backend', 'cpu', 'reproduce', 'ccl-table1', '--queue', `redis://127.0.0.1:${closed}/0`], join(dir, 'c0'));
    expect(await Promise.all([badUrl.exited, followAlone.exited, badWorker.exited, down.exited, reproduceBoth.exited, reproduceDown.exited])).toEqual([
      1, 1, 1, 1, 1, 1,
    ]);
    expect(reproduceBoth.stderr()).toMatch(/^mia: reproduce: --queue and --workers 2 exclude each other .*got both$/m);
    expect(reproduceDown.stderr()).toMatch(new RegExp(`^mia: reproduce: cannot reach Redis at --queue redis://127.0.0.1:${closed}/0 `, 'm'));
    expect(badUrl.stderr()).toMatch(/^mia: --queue must be redis:\/\/host:port\[\/db\] .*the scheme is "http", got "http:\/\/127.0.0.1:6379"$/m);
    expect(followAlone.stderr()).toMatch(/^mia: sweep: --follow needs --queue <url>$/m);
    expect(badWorker.stderr()).toMatch(/^mia: --queue must be .*the port is missing, got "redis:\/\/127.0.0.1"$/m);
    expect(down.stderr()).toMatch(
      new RegExp(`^mia: worker: cannot reach Redis at --queue redis://127.0.0.1:${closed}/0 \\(.*ECONNREFUSED.*\\); is redis-server running`, 'm'),
    );
  });
});

describe.skipIf(!hasRedis)(
  `scale-out on a real redis-server${hasRedis ? '' : ' (SKIPPED: redis-server is not on PATH; apt-get install -y redis-server)'}`,
  () => {
    it('two workers, one SIGKILLed mid-job: the job is retried on the other, nothing lost or redone, results equal the embedded run', async () => {
      const redis = await startRedisServer();
      stopRedis = redis.stop;
      const url = `${redis.url}/0`;
      const config = join(dir, 'sweep.json');
      writeFileSync(config, JSON.stringify(sweep));
      const embedded = mia(['--backend', 'cpu', 'sweep', config, '--workers', '0', '--out', join(dir, 'embedded')], join(dir, 'cache-embedded'));
      const shared = join(dir, 'shared');
      const coordinator = mia(['--backend', 'cpu', 'sweep', config, '--queue', url, '--out', join(dir, 'queued')], shared);
      await coordinator.waitFor(/^queue: 6 unit\(s\) enqueued, 0 already queued/);
      const workerArgs = [
        '--backend',
        'cpu',
        'worker',
        '--queue',
        url,
        '--artifacts',
        join(shared, 'models'),
        '--lock-duration',
        '4000',
        '--stalled-interval',
        '1000',
      ];
      const a = mia(workerArgs, shared);
      await a.waitFor(TRAINED); // A finished one unit: it must not be lost or redone
      const b = mia(workerArgs, shared);
      await a.waitFor(TRAINING, 2);
      // SIGTERM in the middle of A's second unit: A puts it back in the queue and ends within 2 s.
      const stopAsked = Date.now();
      a.child.kill('SIGTERM');
      expect([0, 143]).toContain(await a.exited);
      expect(Date.now() - stopAsked).toBeLessThan(2000);
      expect(a.stderr()).toMatch(/SIGTERM: putting the running unit\(s\) back in the queue and exiting/);
      const killedLabel = labels(a.stderr(), TRAINING)[1]!;
      const trainedByA = labels(a.stderr(), TRAINED);
      expect(trainedByA, 'A was stopped before it finished its second unit').toHaveLength(1);

      expect(await coordinator.exited).toBe(0);
      const trainedByB = labels(b.stderr(), TRAINED);
      expect(trainedByB).toContain(killedLabel); // retried on B after BullMQ's stalled-job check
      expect(trainedByB).not.toContain(trainedByA[0]); // A's finished unit was not redone
      expect([...trainedByA, ...trainedByB].sort()).toEqual(
        sweep.defenses[0]!.grid.alpha.flatMap((v) => [`CCQL alpha=${v}/shadow`, `CCQL alpha=${v}/target`]).sort(),
      );
      expect(coordinator.stderr()).toMatch(/^\[6\/6\] CCQL alpha=/m);

      // The first SIGTERM lets an idle worker exit cleanly.
      b.child.kill('SIGTERM');
      expect(await b.exited).toBe(0);
      expect(b.stderr()).toMatch(/worker stopped/);

      expect(await embedded.exited).toBe(0);
      const read = (d: string) => JSON.parse(readFileSync(join(dir, d, 'results.json'), 'utf8')) as ExperimentResults;
      const [local, queued] = [read('embedded'), read('queued')];
      const numbers = (r: ExperimentResults) => r.rows.map(({ trainSeconds: _, ...row }) => row);
      expect(queued.rows.map((r) => r.cache)).toEqual(local.rows.map(() => ({ target: 'miss', shadow: 'miss' })));
      expect(numbers(queued)).toEqual(numbers(local));
      expect(queued.partition).toEqual(local.partition);
      expect(queued.versions).toEqual(local.versions);
    }, 240_000);
  },
);
