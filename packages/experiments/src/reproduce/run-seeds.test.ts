import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DirectoryArtifactStore } from '../store/artifact-store';
import { parseExperimentConfig } from '../config/parse-config';
import { pairedDifferenceSe } from '../run/paired-se';
import { runExperiment } from '../run/runner';
import type { ExperimentResults } from '../run/results';
import { runReproduction } from './run-reproduction';
import { configForSeed, runSeeds, seedRuns } from './seeds';
import { isNotRun, type Reproduction, type ReproductionContext, type RunOutcome } from './types';

const dir = mkdtempSync(join(tmpdir(), 'mia-seeds-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(async () => {
  await tf.setBackend('cpu');
});

const config = parseExperimentConfig({
  name: 'seeds-test',
  scale: 'smoke',
  seed: 3,
  dataset: { name: 'purchaseLike', size: 1200 },
  partition: { preset: 'CCL4', maxPerRole: 100 },
  model: { name: 'mlp', options: { hidden: [16] } },
  training: { epochs: 4, batchSize: 32, lr: 0.1 },
  defenses: [
    { name: 'none', label: 'undefended' },
    { name: 'ccl', label: 'CCQL', params: { alpha: 0.5, concave: 'quadratic' } },
  ],
  attacks: ['loss', 'entropy'],
});

/** Runs `body` as a reproduction at smoke scale on `store` and returns what it returned. */
async function reproduce<T>(
  store: DirectoryArtifactStore,
  out: string,
  body: (ctx: ReproductionContext) => Promise<T>,
  options: { workers?: number; onLog?: (line: string) => void } = {},
): Promise<T> {
  let value: T | undefined;
  const reproduction: Reproduction = {
    name: 'seeds-demo',
    paper: 'Demo',
    title: 'seeds',
    source: 'nowhere',
    async run(ctx) {
      value = await body(ctx);
      return { tables: [], claims: [] };
    },
  };
  await runReproduction(reproduction, { scale: 'smoke', out: join(dir, out), store, ...options });
  return value!;
}

const weightsOf = async (ctx: ReproductionContext, trainingSeed: number | undefined) => {
  const loaded = await ctx.loadModel(trainingSeed === undefined ? config : { ...config, trainingSeed }, 'undefended');
  const values = loaded.model.trainableVariables.map((v) => Array.from(v.dataSync()));
  loaded.model.dispose();
  return { values, members: loaded.members };
};

describe('seedRuns', () => {
  it('names and seeds the runs of a group: the config itself first, then copies with the next training seeds', () => {
    const runs = seedRuns('tiny', config, 3);
    expect(runs.map((r) => [r.id, r.trainingSeed])).toEqual([
      ['tiny', 3],
      ['tiny-seed-4', 4],
      ['tiny-seed-5', 5],
    ]);
    expect(runs[0]!.config).toBe(config);
    expect(runs[2]!.config).toEqual({ ...config, trainingSeed: 5 });
    expect(configForSeed(config, 3)).toBe(config);
    expect(configForSeed(config, 4)).toEqual(runs[1]!.config);
    expect(seedRuns('x', { ...config, trainingSeed: 10 }, 2).map((r) => r.id)).toEqual(['x', 'x-seed-11']);
    expect(() => seedRuns('x', config, 0)).toThrow('runSeeds: k must be a positive integer, got 0');
  });
});

describe('runSeeds onRun', () => {
  // A stand-in for ctx.run: each seed's run resolves when the test says so; results carry only what aggregateSeeds reads.
  const fakeRuns = () => {
    const events: string[] = [];
    const pending = new Map<string, (outcome: RunOutcome) => void>();
    const run = (id: string) =>
      new Promise<RunOutcome>((resolve) => {
        events.push(`start ${id}`);
        pending.set(id, resolve);
      });
    const finish = (id: string) => pending.get(id)!({ partition: { digest: 'd' }, rows: [], notes: [], seconds: 1 } as unknown as ExperimentResults);
    const onRun = async (r: { id: string; trainingSeed: number }, outcome: RunOutcome) => {
      events.push(`onRun ${r.id} seed ${r.trainingSeed} ${isNotRun(outcome) ? 'not run' : 'ran'}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      events.push(`done ${r.id}`);
    };
    return { events, run, finish, onRun };
  };
  const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

  it('concurrent: a seed is handed over as soon as its run ends, while the others still run; the aggregate waits for every onRun', async () => {
    const f = fakeRuns();
    let settled = false;
    const all = runSeeds(f.run, 'x', config, 3, { concurrent: true, onRun: f.onRun }).then((o) => {
      settled = true;
      return o;
    });
    await tick();
    f.finish('x-seed-5');
    await tick();
    expect(f.events).toEqual(['start x', 'start x-seed-4', 'start x-seed-5', 'onRun x-seed-5 seed 5 ran', 'done x-seed-5']);
    expect(settled).toBe(false);
    f.finish('x');
    f.finish('x-seed-4');
    const outcome = (await all) as ExperimentResults;
    expect(f.events.slice(5).sort()).toEqual(['done x', 'done x-seed-4', 'onRun x seed 3 ran', 'onRun x-seed-4 seed 4 ran']);
    expect(outcome.trainingSeeds).toEqual([3, 4, 5]);
  });

  it('in order: each onRun ends before the next seed starts', async () => {
    const f = fakeRuns();
    const all = runSeeds(f.run, 'x', config, 2, { onRun: f.onRun });
    await tick();
    f.finish('x');
    await tick();
    f.finish('x-seed-4');
    await all;
    expect(f.events).toEqual(['start x', 'onRun x seed 3 ran', 'done x', 'start x-seed-4', 'onRun x-seed-4 seed 4 ran', 'done x-seed-4']);
  });
});

describe('ReproductionContext.runSeeds', () => {
  it('trains k models per defense on one partition (different weights), caches them, and aggregates every seed', async () => {
    const store = new DirectoryArtifactStore(join(dir, 'cache'));
    const before = tf.memory().numTensors;
    const first = await reproduce(store, 'a', async (ctx) => {
      const agg = (await ctx.runSeeds('tiny', config, 2)) as ExperimentResults;
      return { agg, seed3: await weightsOf(ctx, undefined), seed4: await weightsOf(ctx, 4) };
    });
    expect(tf.memory().numTensors).toBe(before);
    const { agg } = first;
    // Seeds 3 (the config's own: the single-seed run) and 4; 2 defenses × (target + shadow) × 2 seeds trained.
    expect(agg.trainingSeeds).toEqual([3, 4]);
    expect((await store.list()).filter((e) => e.meta.kind === 'trained-model')).toHaveLength(8);
    expect(first.seed4.members).toEqual(first.seed3.members);
    expect(first.seed4.values).not.toEqual(first.seed3.values);
    // Each seed's run is written under its own id, on the same partition; the aggregate holds both.
    const read = (id: string): ExperimentResults => JSON.parse(readFileSync(join(dir, 'a', 'runs', id, 'results.json'), 'utf8'));
    const [r3, r4] = [read('tiny'), read('tiny-seed-4')];
    expect(r3.config).not.toHaveProperty('trainingSeed');
    expect(r4.config.trainingSeed).toBe(4);
    expect(r4.partition.digest).toBe(r3.partition.digest);
    for (const [i, row] of agg.rows.entries()) {
      expect(row.seeds!.map((s) => [s.trainingSeed, s.testAccuracy, s.maxAdvantage])).toEqual([
        [3, r3.rows[i]!.testAccuracy, r3.rows[i]!.maxAdvantage],
        [4, r4.rows[i]!.testAccuracy, r4.rows[i]!.maxAdvantage],
      ]);
      expect(row.testAccuracy).toBeCloseTo((r3.rows[i]!.testAccuracy + r4.rows[i]!.testAccuracy) / 2, 12);
      expect(row.se!.method).toBe('seeds+bootstrap');
      expect(row.se!.testAccuracy).toBeGreaterThanOrEqual(Math.min(r3.rows[i]!.se!.testAccuracy, r4.rows[i]!.se!.testAccuracy));
      expect(row.cache.target).toBe('miss');
    }
    expect(r3.rows.map((r) => r.testAccuracy)).not.toEqual(r4.rows.map((r) => r.testAccuracy));
    expect(pairedDifferenceSe(agg, 'undefended', 'CCQL', 'p1')).toBeGreaterThan(0);
    expect(agg.pairedSe!.method).toBe('seeds+paired-bootstrap');

    // A rerun comes from the cache (nothing trained) with identical numbers; k = 1 is the single run.
    const second = await reproduce(store, 'b', async (ctx) => ({
      agg: (await ctx.runSeeds('tiny', config, 2)) as ExperimentResults,
      single: await ctx.runSeeds('one', config, 1),
    }));
    expect(second.agg.rows.map((r) => r.cache)).toEqual(agg.rows.map(() => ({ target: 'hit', shadow: 'hit' })));
    expect(second.agg.rows.map((r) => [r.seeds, r.se, r.p1])).toEqual(agg.rows.map((r) => [r.seeds, r.se, r.p1]));
    expect(second.agg.pairedSe).toEqual(agg.pairedSe);
    expect(isNotRun(second.single)).toBe(false);
    const single = second.single as ExperimentResults;
    expect(single.trainingSeeds).toBeUndefined();
    expect(single.rows.map((r) => [r.testAccuracy, r.se])).toEqual(r3.rows.map((r) => [r.testAccuracy, r.se]));
    expect(single.pairedSe).toEqual(r3.pairedSe);

    // Seeded: training seed 4 retrained from scratch in another store gives the same numbers.
    const fresh = await runExperiment({ ...config, trainingSeed: 4 }, { store: new DirectoryArtifactStore(join(dir, 'fresh')) });
    expect(fresh.rows.map((r) => r.cache.target)).toEqual(['miss', 'miss']);
    expect(fresh.rows.map((r) => [r.testAccuracy, r.attacks.map((a) => a.auc), r.se])).toEqual(
      r4.rows.map((r) => [r.testAccuracy, r.attacks.map((a) => a.auc), r.se]),
    );
    expect(fresh.pairedSe).toEqual(r4.pairedSe);
  });

  it('with worker threads, starts every seed at once (their units share the pool’s slots, runs whose models are done attack meanwhile) and gives the in-thread numbers', async () => {
    const inThread = await reproduce(
      new DirectoryArtifactStore(join(dir, 'thread')),
      't',
      async (ctx) => (await ctx.runSeeds('tiny', config, 3)) as ExperimentResults,
    );
    const logs: string[] = [];
    const pooled = await reproduce(
      new DirectoryArtifactStore(join(dir, 'pool')),
      'p',
      async (ctx) => (await ctx.runSeeds('tiny', config, 3)) as ExperimentResults,
      {
        workers: 2,
        onLog: (l) => logs.push(l),
      },
    );
    // All three runs began (prepared their data and queued their units) before the first one's training ended.
    const firstTrained = logs.findIndex((l) => /\] \[worker \d\] trained /.test(l));
    for (const id of ['tiny', 'tiny-seed-4', 'tiny-seed-5'])
      expect(
        logs.findIndex((l) => l.startsWith(`[${id}] `)),
        id,
      ).toBeLessThan(firstTrained);
    expect(logs.filter((l) => /\[worker \d\] trained /.test(l))).toHaveLength(12);
    // Each run says where its units train: the reproduction's shared pool, not a queue.
    expect(logs).toContain("[tiny] models     0 of 4 in the cache; training 4 on the reproduction's 2 shared worker threads");
    expect(pooled.trainingSeeds).toEqual([3, 4, 5]);
    expect(pooled.rows.map((r) => [r.seeds, r.se, r.p1])).toEqual(inThread.rows.map((r) => [r.seeds, r.se, r.p1]));
    expect(pooled.pairedSe).toEqual(inThread.pairedSe);
  });

  it('refuses a k that is not a positive integer', async () => {
    const store = new DirectoryArtifactStore(join(dir, 'bad'));
    for (const k of [0, 1.5])
      await expect(reproduce(store, `bad-${k}`, (ctx) => ctx.runSeeds('x', config, k))).rejects.toThrow(`runSeeds: k must be a positive integer, got ${k}`);
  });
});
