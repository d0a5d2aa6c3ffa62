import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DirectoryArtifactStore } from '../store/artifact-store';
import { parseExperimentConfig } from '../config/parse-config';
import { runExperiment } from './runner';
import { trainUnitsInWorkers, workerIsolation } from '../place/worker-pool';

const dir = mkdtempSync(join(tmpdir(), 'mia-runner-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(async () => {
  await tf.setBackend('cpu');
});

// A tiny but real run: Purchase-like stand-in, a narrow MLP, CE vs CCL, adaptive shadows.
const config = parseExperimentConfig({
  name: 'test-tiny',
  scale: 'smoke',
  seed: 1,
  dataset: { name: 'purchaseLike', size: 2000 },
  partition: { preset: 'CCL4', maxPerRole: 150 },
  model: { name: 'mlp', options: { hidden: [64] } },
  training: { epochs: 15, batchSize: 32, lr: 0.1, schedule: { type: 'cosine' } },
  defenses: [
    { name: 'none', label: 'undefended' },
    { name: 'ccl', label: 'CCEL', params: { alpha: 0.3, concave: 'exponential' } },
  ],
  attacks: ['correctness', 'loss', 'confidence', 'entropy', 'modifiedEntropy'],
});

describe('runExperiment', () => {
  it('trains, attacks and caches: a rerun retrains nothing; a corrupted entry is retrained, never used', async () => {
    const store = new DirectoryArtifactStore(join(dir, 'cache'));
    const before = tf.memory().numTensors;
    const first = await runExperiment(config, { store });
    // 150 members of 100 classes: warned about; no model diverged.
    expect(first.warnings).toEqual([
      expect.stringMatching(
        /^too few examples per class: the target trains on 150 examples of 100 classes, 1\.5 per class on average \(\d+ classes have none\), fewer than 5;/,
      ),
    ]);
    expect(tf.memory().numTensors).toBe(before);
    expect(first.rows.map((r) => r.label)).toEqual(['undefended', 'CCEL']);
    expect(first.dataset.source).toBe('stand-in');
    expect(first.notes.join(' ')).toMatch(/stand-in/);
    const undefended = first.rows[0]!;
    expect(undefended.attacks.map((a) => a.attack)).toEqual(['correctness', 'loss', 'confidence', 'entropy', 'modifiedEntropy']);
    expect(undefended.trainAccuracy).toBeGreaterThan(undefended.testAccuracy);
    expect(undefended.attacks.find((a) => a.attack === 'loss')!.auc).toBeGreaterThan(0.55);
    expect(undefended.cache).toEqual({ target: 'miss', shadow: 'miss' });
    expect(first.rows[1]!.p1).toBeGreaterThan(0);

    const second = await runExperiment(config, { store });
    expect(second.rows.map((r) => r.cache)).toEqual([
      { target: 'hit', shadow: 'hit' },
      { target: 'hit', shadow: 'hit' },
    ]);
    expect(second.rows.map((r) => r.testAccuracy)).toEqual(first.rows.map((r) => r.testAccuracy));
    expect(second.rows[0]!.attacks.map((a) => a.auc)).toEqual(first.rows[0]!.attacks.map((a) => a.auc));
    // The paired bootstrap of the two rows (same evaluation examples, docs/protocol.md §5.2) is seeded: identical again.
    expect(first.pairedSe!.rows).toEqual(['undefended', 'CCEL']);
    expect(first.pairedSe!.se.p1![0]).toBeGreaterThan(0);
    expect(second.pairedSe).toEqual(first.pairedSe);

    // Corrupt one file of one entry: verify flags it and the next run retrains exactly that model.
    const entries = await store.list();
    expect(entries).toHaveLength(4);
    const victim = entries[0]!;
    const prefix = join(dir, 'cache', victim.key.slice(0, 2), victim.key);
    writeFileSync(join(prefix, 'members.logits'), new Uint8Array([1, 2, 3]));
    expect((await store.verify(victim.key)).ok).toBe(false);
    const logs: string[] = [];
    const third = await runExperiment(config, { store, onLog: (line) => logs.push(line) });
    expect(logs.filter((l) => l.startsWith('corrupted'))).toEqual([
      `corrupted  ${victim.meta.label as string} (${victim.key.slice(0, 12)}): members.logits: 3 bytes, manifest says ${victim.files['members.logits']!.bytes}; retraining it`,
    ]);
    const misses = third.rows.flatMap((r) => [r.cache.target, r.cache.shadow]).filter((c) => c === 'miss');
    expect(misses).toHaveLength(1);
    expect((await store.verify(victim.key)).ok).toBe(true);
    expect(readdirSync(join(dir, 'cache')).filter((f) => f.startsWith('.tmp'))).toEqual([]);
  });

  it('warns when a model diverged (lr 1e6: finite but enormous losses), naming the model and the learning rate', async () => {
    const diverging = parseExperimentConfig({
      ...config,
      dataset: { name: 'purchaseLike', size: 1000 },
      training: { epochs: 2, batchSize: 32, lr: 1e6 },
      defenses: [{ name: 'none', label: 'undefended' }],
      attacks: ['loss'],
    });
    const results = await runExperiment(diverging, { store: new DirectoryArtifactStore(join(dir, 'diverging')) });
    const diverged = results.warnings!.filter((w) => w.includes('diverged'));
    expect(diverged).toEqual([
      expect.stringMatching(
        /^undefended target diverged: its mean loss on its own training set is (\S+), worse than a uniform guess \(ln 100 = 4\.61\), so its row is meaningless; lower training\.lr \(1000000\)/,
      ),
      expect.stringMatching(/^undefended shadow diverged: /),
    ]);
  });

  it('trains no shadow without attacks, and stores what a defense records (CRL relaxation counts) with the unit', async () => {
    const store = new DirectoryArtifactStore(join(dir, 'no-attacks'));
    const crl = parseExperimentConfig({
      ...config,
      dataset: { name: 'purchaseLike', size: 1000 },
      training: { epochs: 2, batchSize: 50, lr: 0.1 },
      attacks: [],
      defenses: [{ name: 'crl', label: 'CRL', params: { alpha: 10, t: 0.05, alphaCenter: 1000, tCenter: 0.05, lambda: 0.1 } }],
    });
    const logs: string[] = [];
    const first = await runExperiment(crl, { store, onLog: (l) => logs.push(l) });
    expect(await store.list()).toHaveLength(1);
    const row = first.rows[0]!;
    expect(row.cache).toEqual({ target: 'miss', shadow: 'none' });
    expect([row.attacks, row.maxAdvantage]).toEqual([[], 0]);
    // α_rce = 10 > ln 100 = 4.6 (3 ascent steps cannot climb that far) and α_rcl = 1000 above any distance (normalised vectors have norm < 1/t = 20, so dist < 800): both branches fire on every batch (3 per epoch).
    const relaxation = row.trainingMetrics!.target!.crlRelaxation as { summary: unknown; epochs: unknown[] };
    expect(relaxation.summary).toEqual({ batches: 6, rceAscent: 3, rceSoft: 3, rclAscent: 3, rclSoft: 3 });
    expect(relaxation.epochs).toHaveLength(2);
    expect(row.trainingMetrics!.shadow).toBeUndefined();
    expect(logs.filter((l) => l.startsWith('CRL/target: crl epoch'))).toHaveLength(2);
    // A cache hit reads the same metrics back from the unit's manifest.
    const second = await runExperiment(crl, { store });
    expect(second.rows[0]!.cache.target).toBe('hit');
    expect(second.rows[0]!.trainingMetrics).toEqual(row.trainingMetrics);
  });

  it('rejects an unknown defense and a bad config field with errors naming them', async () => {
    expect(() => parseExperimentConfig({ ...config, training: { ...config.training, epochs: 0 } })).toThrow('training.epochs: expected a number > 0, got 0');
    expect(() => parseExperimentConfig({ name: 'x' })).toThrow('dataset: expected an object, got nothing (it is required)');
    await expect(
      runExperiment({ ...config, defenses: [{ name: 'nope', params: {} }] }, { store: new DirectoryArtifactStore(join(dir, 'c2')) }),
    ).rejects.toThrow(/defenses\[0\]\.name: expected one of none, ccl, crl, past.*got "nope"/);
    await expect(runExperiment({ ...config, dataset: { name: 'cifar100' } }, { store: new DirectoryArtifactStore(join(dir, 'c3')) })).rejects.toThrow(
      /cifar100/,
    );
  });

  it('worker threads give the same numbers as an in-thread run, and expand a grid', async () => {
    const grid = parseExperimentConfig({
      ...config,
      defenses: [{ name: 'ccl', label: 'CCEL', params: { concave: 'exponential' }, grid: { alpha: [0.3, 0.7] } }],
    });
    const inThread = await runExperiment(grid, { store: new DirectoryArtifactStore(join(dir, 'pool-a')) });
    expect(inThread.rows.map((r) => r.label)).toEqual(['CCEL alpha=0.3', 'CCEL alpha=0.7']);
    const logs: string[] = [];
    const pooled = await runExperiment(grid, { store: new DirectoryArtifactStore(join(dir, 'pool-b')), workers: 2, onLog: (l) => logs.push(l) });
    expect(logs.some((l) => l.startsWith('[worker 1]'))).toBe(true);
    expect(pooled.rows.map((r) => r.cache)).toEqual(inThread.rows.map(() => ({ target: 'miss', shadow: 'miss' })));
    expect(pooled.rows.map((r) => [r.trainAccuracy, r.testAccuracy, r.lossGap])).toEqual(
      inThread.rows.map((r) => [r.trainAccuracy, r.testAccuracy, r.lossGap]),
    );
    expect(pooled.rows.map((r) => r.attacks.map((a) => a.auc))).toEqual(inThread.rows.map((r) => r.attacks.map((a) => a.auc)));
    expect(pooled.pairedSe).toEqual(inThread.pairedSe);
    // What the pool will do is said before it starts; the units it trained are not reported as cache hits.
    expect(logs).toContain('models     0 of 4 in the cache; training 4 on 2 worker threads');
    expect(logs.filter((l) => l.startsWith('cache hit'))).toEqual([]);
    expect(logs.filter((l) => /^\[worker \d\] trained {4}CCEL alpha=0\.[37]\/(target|shadow) in /.test(l))).toHaveLength(4);
    // A rerun on the same cache finds every unit and says so; now they are cache hits.
    const again: string[] = [];
    const rerun = await runExperiment(grid, { store: new DirectoryArtifactStore(join(dir, 'pool-b')), workers: 2, onLog: (l) => again.push(l) });
    expect(again).toContain('models     4 of 4 in the cache; nothing to train');
    expect(again.filter((l) => l.startsWith('cache hit'))).toHaveLength(4);
    expect(rerun.rows.map((r) => r.cache)).toEqual(inThread.rows.map(() => ({ target: 'hit', shadow: 'hit' })));
  });

  it('worker processes (each training in its own address space) give the same numbers as worker threads', async () => {
    const grid = parseExperimentConfig({ ...config, defenses: [{ name: 'none', label: 'undefended' }, config.defenses[1]!] });
    const threads = await runExperiment(grid, { store: new DirectoryArtifactStore(join(dir, 'iso-t')), workers: 2, workerIsolation: 'thread' });
    const logs: string[] = [];
    const processes = await runExperiment(grid, {
      store: new DirectoryArtifactStore(join(dir, 'iso-p')),
      workers: 2,
      workerIsolation: 'process',
      onLog: (l) => logs.push(l),
    });
    expect(logs).toContain('models     0 of 4 in the cache; training 4 on 2 worker processes');
    expect(logs.filter((l) => /^\[worker [01]\] trained /.test(l))).toHaveLength(4);
    expect(processes.rows.map((r) => [r.trainAccuracy, r.testAccuracy, r.lossGap, r.attacks.map((a) => a.auc)])).toEqual(
      threads.rows.map((r) => [r.trainAccuracy, r.testAccuracy, r.lossGap, r.attacks.map((a) => a.auc)]),
    );
    // The stores hold the same models, byte for byte.
    const files = (root: string) =>
      readdirSync(root, { recursive: true })
        .map(String)
        .filter((f) => f.endsWith('.bin'))
        .sort();
    expect(files(join(dir, 'iso-t'))).toHaveLength(4);
    expect(files(join(dir, 'iso-p'))).toEqual(files(join(dir, 'iso-t')));
    for (const f of files(join(dir, 'iso-t'))) expect(readFileSync(join(dir, 'iso-p', f)).equals(readFileSync(join(dir, 'iso-t', f))), f).toBe(true);
  });

  // A process's command line, '' when it ended between the listing of /proc and the read.
  const cmdline = (pid: string): string => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      return '';
    }
  };

  it('a worker process that fails says why, and one that is killed names its signal', async () => {
    const grid = parseExperimentConfig({ ...config, defenses: [{ name: 'none', label: 'undefended' }] });
    const storeRoot = join(dir, 'iso-fail');
    const units = [{ defenseIndex: 0, role: 'target' as const }];
    // The process cannot load its data: the pool rejects with the worker's own message.
    await expect(
      trainUnitsInWorkers(parseExperimentConfig({ ...config, dataset: { name: 'cifar100' } }), units, {
        workers: 1,
        storeRoot,
        dataDir: join(dir, 'none'),
        isolation: 'process',
      }),
    ).rejects.toThrow(/^worker 0: .*cifar100/);
    // Killed from outside while it trains (as the OOM killer would): the signal is named.
    const pids = new Set(readdirSync('/proc').filter((p) => /^\d+$/.test(p)));
    const run = trainUnitsInWorkers(grid, units, {
      workers: 1,
      storeRoot,
      isolation: 'process',
      onLog: () => {
        for (const p of readdirSync('/proc').filter((p) => /^\d+$/.test(p) && !pids.has(p)))
          if (cmdline(p).includes('train-worker')) process.kill(Number(p), 'SIGKILL');
      },
    });
    await expect(run).rejects.toThrow(/^worker 0 exited with signal SIGKILL/);
  });

  it('MIA_WORKER_ISOLATION chooses threads or processes and refuses anything else', () => {
    expect(workerIsolation(undefined, {})).toBe('thread');
    expect(workerIsolation(undefined, { MIA_WORKER_ISOLATION: 'process' })).toBe('process');
    expect(workerIsolation('thread', { MIA_WORKER_ISOLATION: 'process' })).toBe('thread');
    expect(() => workerIsolation(undefined, { MIA_WORKER_ISOLATION: 'fork' })).toThrow('MIA_WORKER_ISOLATION must be "thread" or "process", got "fork"');
  });
});
