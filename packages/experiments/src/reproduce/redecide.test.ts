import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DirectoryArtifactStore } from '../store/artifact-store';
import { parseExperimentConfig } from '../config/parse-config';
import { claimForEveryColumn, regimeGate } from './column-claims';
import { redecideReproduction } from './redecide';
import { rowMetrics } from './row-metrics';
import { runReproduction } from './run-reproduction';
import { metricTable } from './table-helpers';
import { DEFAULT_REGIME } from './testability';
import type { Reproduction } from './types';

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
