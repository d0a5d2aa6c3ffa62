import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DirectoryArtifactStore } from '../store/artifact-store';
import { parseExperimentConfig } from '../config/parse-config';
import { claimForEveryColumn, regimeGate } from './column-claims';
import { ConfigChangedError, NeedsTrainedModelsError, redecideReproduction, replayReproduction } from './redecide';
import { PlanDriftError, plannedSeedRuns } from './run-plan';
import { rowMetrics } from './row-metrics';
import { runReproduction } from './run-reproduction';
import { metricTable } from './table-helpers';
import { DEFAULT_REGIME } from '../run/testability';
import type { PlannedRun, Reproduction } from './types';

const dir = mkdtempSync(join(tmpdir(), 'mia-redecide-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(async () => {
  await tf.setBackend('cpu');
});

const tiny = (epochs: number) =>
  parseExperimentConfig({
    name: 'redecide-test',
    scale: 'smoke',
    seed: 5,
    dataset: { name: 'purchaseLike', size: 1200 },
    partition: { preset: 'CCL4', maxPerRole: 100 },
    model: { name: 'mlp', options: { hidden: [16] } },
    training: { epochs, batchSize: 32, lr: 0.1 },
    defenses: [
      { name: 'none', label: 'undefended' },
      { name: 'ccl', label: 'CCQL', params: { alpha: 0.5, concave: 'quadratic' } },
    ],
    attacks: ['loss'],
  });

/** A reproduction whose claims are a pure function of its runs' results; `epochs` changes its config. */
const demo = (epochs: number, needsModel = false): Reproduction => ({
  name: 'demo-table9',
  paper: 'Demo',
  title: 'Demo Table 9',
  source: 'nowhere, Table 9',
  async run(ctx) {
    const runs = {
      purchaseLike: await ctx.run('purchase', tiny(epochs)),
      'CIFAR-100': await ctx.run('cifar100', { ...tiny(epochs), dataset: { name: 'cifar100' } }),
    };
    if (needsModel) (await ctx.loadModel(tiny(epochs), 'CCQL')).model.dispose();
    const table = metricTable({ title: 'P1', runs, rows: ['undefended', 'CCQL'], metric: rowMetrics.p1, format: 'num' });
    return {
      tables: [table],
      claims: [
        claimForEveryColumn({
          table,
          statement: 'P1(CCQL) > P1(undefended) on every dataset',
          rowA: 'CCQL',
          rowB: 'undefended',
          direction: 'greater',
          gate: regimeGate({ runs, undefended: 'undefended', compared: ['CCQL', 'undefended'], regime: DEFAULT_REGIME }),
        }),
      ],
    };
  },
});

describe('redecideReproduction', () => {
  const out = join(dir, 'out');
  let measured: Awaited<ReturnType<typeof runReproduction>>;
  beforeAll(async () => {
    measured = await runReproduction(demo(4), { scale: 'smoke', out, store: new DirectoryArtifactStore(join(dir, 'cache')) });
  });

  it('rebuilds the tables and claims from the stored results without training, keeping what was measured', async () => {
    const copy = join(dir, 'copy');
    cpSync(out, copy, { recursive: true });
    // An empty store: anything that tried to train or load a model would fail.
    const store = new DirectoryArtifactStore(join(dir, 'empty-cache'));
    const lines: string[] = [];
    const again = await redecideReproduction(demo(4), { dir: copy, store, onLog: (l) => lines.push(l) });
    expect(again.tables).toEqual(measured.tables);
    expect(again.claims).toEqual(measured.claims);
    expect(again.runs).toEqual(measured.runs);
    expect(again.startedAt).toBe(measured.startedAt);
    expect(again.seconds).toBe(measured.seconds);
    expect(Date.parse(again.decidedAt!)).toBeGreaterThanOrEqual(Date.parse(measured.startedAt));
    expect(lines.some((l) => l.includes('[purchase] stored results'))).toBe(true);
    const written = JSON.parse(readFileSync(join(copy, 'reproduction.json'), 'utf8'));
    expect(written.decidedAt).toBe(again.decidedAt);
    expect(readFileSync(join(copy, 'report.md'), 'utf8')).toContain('P1(CCQL) > P1(undefended)');
  });

  it('refuses results measured with another config, naming the run and what differs', async () => {
    const copy = join(dir, 'copy-changed');
    cpSync(out, copy, { recursive: true });
    await expect(redecideReproduction(demo(6), { dir: copy })).rejects.toThrow(
      /run "purchase" of demo-table9 was measured with another config .*differs in training.*re-run it: mia reproduce demo-table9 --scale smoke/,
    );
  });

  it('refuses a reproduction that now asks for a run it did not store (e.g. more training seeds), as a config change', async () => {
    const copy = join(dir, 'copy-seeds');
    cpSync(out, copy, { recursive: true });
    const moreSeeds: Reproduction = {
      ...demo(4),
      async run(ctx) {
        await ctx.runSeeds('purchase', tiny(4), 2);
        return { tables: [], claims: [], notes: [] };
      },
    };
    const error = await redecideReproduction(moreSeeds, { dir: copy }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigChangedError);
    expect((error as Error).message).toMatch(
      /asks for run "purchase-seed-6", which the stored reproduction does not have .*re-run it: mia reproduce demo-table9 --scale smoke/,
    );
  });

  it('refuses a reproduction that needs its trained models', async () => {
    const copy = join(dir, 'copy-model');
    cpSync(out, copy, { recursive: true });
    await expect(redecideReproduction(demo(4, true), { dir: copy, store: new DirectoryArtifactStore(join(dir, 'empty-2')) })).rejects.toThrow(
      /demo-table9 needs its trained models .*re-run it/,
    );
  });

  it('names a missing or corrupt stored file', async () => {
    const missing = join(dir, 'copy-missing');
    cpSync(out, missing, { recursive: true });
    rmSync(join(missing, 'runs', 'purchase', 'results.json'));
    await expect(redecideReproduction(demo(4), { dir: missing })).rejects.toThrow(
      /the stored results of run "purchase" must exist at .*results\.json, got ENOENT/,
    );
    const corrupt = join(dir, 'copy-corrupt');
    cpSync(out, corrupt, { recursive: true });
    writeFileSync(join(corrupt, 'reproduction.json'), '{"name": "demo-tab');
    await expect(redecideReproduction(demo(4), { dir: corrupt })).rejects.toThrow(/reproduction.json at .* must be JSON, got a parse error/);
    await expect(redecideReproduction({ ...demo(4), name: 'demo-table8' }, { dir: out })).rejects.toThrow(
      /must be a result of demo-table8, got one of demo-table9/,
    );
  });
});

describe('the staleness guard with a plan: every run compared before any model is loaded', () => {
  const out = join(dir, 'models-out');
  const store = new DirectoryArtifactStore(join(dir, 'cache'));
  const late = { ...tiny(3), name: 'redecide-test-late' };
  let loads = 0;
  /** Runs "purchase", loads a model of it, then runs two training seeds of "late" ("late", "late-seed-6"): the late runs come after the load. */
  const withModels = (plan?: () => PlannedRun[]): Reproduction => ({
    name: 'demo-table8',
    paper: 'Demo',
    title: 'Demo Table 8',
    source: 'nowhere, Table 8',
    ...(plan === undefined ? {} : { plan }),
    async run(ctx) {
      await ctx.run('purchase', tiny(4));
      loads += 1;
      (await ctx.loadModel(tiny(4), 'CCQL')).model.dispose();
      await ctx.runSeeds('late', late, 2);
      return { tables: [], claims: [], notes: [] };
    },
  });
  const planOf =
    (seeds = 2) =>
    (): PlannedRun[] => [{ id: 'purchase', config: tiny(4) }, ...plannedSeedRuns('late', late, seeds)];
  beforeAll(async () => {
    await runReproduction(withModels(planOf()), { scale: 'smoke', out, store });
  });
  const copyOf = (name: string) => {
    const copy = join(dir, name);
    cpSync(out, copy, { recursive: true });
    return copy;
  };
  /** The stored copy with the late seed's run recorded as measured with 5 epochs instead of 3. */
  const withLateRunChanged = (name: string) => {
    const copy = copyOf(name);
    const file = join(copy, 'runs', 'late-seed-6', 'results.json');
    const results = JSON.parse(readFileSync(file, 'utf8'));
    results.config.training.epochs = 5;
    writeFileSync(file, JSON.stringify(results));
    return copy;
  };

  it('stores every planned run, the late seeds included', () => {
    const stored = JSON.parse(readFileSync(join(out, 'reproduction.json'), 'utf8'));
    expect(Object.keys(stored.runs).sort()).toEqual(['late', 'late-seed-6', 'purchase']);
  });

  it('finds a changed config in a run after the first model load, naming it, before any model is loaded', async () => {
    const copy = withLateRunChanged('copy-late-changed');
    loads = 0;
    const error = await replayReproduction(withModels(planOf()), { dir: copy }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigChangedError);
    expect((error as Error).message).toMatch(/run "late-seed-6" of demo-table8 was measured with another config .*differs in training.*re-run it/);
    expect(loads).toBe(0);
    // The unchanged copy passes the plan and then stops at the model load, as before.
    await expect(replayReproduction(withModels(planOf()), { dir: copyOf('copy-late-same') })).rejects.toThrow(NeedsTrainedModelsError);
    expect(loads).toBe(1);
  });

  it('without a plan the late run is never compared (the hole the plan closes), and the error says so', async () => {
    const copy = withLateRunChanged('copy-late-no-plan');
    const error = await replayReproduction(withModels(), { dir: copy }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NeedsTrainedModelsError);
    expect((error as Error).message).toMatch(/declares no plan\(\)/);
  });

  it('refuses a plan with more or fewer training seeds than were stored, naming the run', async () => {
    const copy = copyOf('copy-plan-seeds');
    await expect(replayReproduction(withModels(planOf(3)), { dir: copy })).rejects.toThrow(
      /asks for run "late-seed-7", which the stored reproduction does not have/,
    );
    await expect(replayReproduction(withModels(planOf(1)), { dir: copy })).rejects.toThrow(
      /has run "late-seed-6", which its current plan does not list .*re-run it: mia reproduce demo-table8 --scale smoke/,
    );
  });

  it('runReproduction holds run() to its plan: an unlisted run, another config, a planned run never asked for', async () => {
    const empty = new DirectoryArtifactStore(join(dir, 'empty-plan'));
    const drift = (plan: () => PlannedRun[]) => runReproduction(withModels(plan), { scale: 'smoke', out: join(dir, 'drift'), store: empty });
    await expect(drift(() => [{ id: 'late', config: late }])).rejects.toThrow(PlanDriftError);
    await expect(drift(() => [{ id: 'late', config: late }])).rejects.toThrow(/asked for run "purchase", which its plan does not list/);
    await expect(drift(() => [{ id: 'purchase', config: tiny(6) }])).rejects.toThrow(
      /run "purchase" with another config than its plan lists \(differs in training\)/,
    );
    // Runs with the measured configs (cached), then finds the plan's extra run that run() never asked for.
    await expect(
      runReproduction(
        withModels(() => [...planOf()(), { id: 'extra', config: tiny(2) }]),
        { scale: 'smoke', out: join(dir, 'drift-extra'), store },
      ),
    ).rejects.toThrow(/its plan lists run "extra", which run\(\) did not ask for/);
  });

  it('validates every planned config before anything trains', async () => {
    const bad = { ...tiny(4), training: { ...tiny(4).training, epochs: 0 } };
    const empty = new DirectoryArtifactStore(join(dir, 'empty-invalid'));
    await expect(
      runReproduction(
        withModels(() => [
          { id: 'purchase', config: tiny(4) },
          { id: 'late', config: bad },
        ]),
        { scale: 'smoke', out: join(dir, 'invalid'), store: empty },
      ),
    ).rejects.toThrow(/demo-table8: the planned config of run "late" is invalid [\s\S]*training.epochs: expected a number > 0, got 0/);
    expect(await empty.list()).toEqual([]);
  });
});
