import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DirectoryArtifactStore } from '../store/artifact-store';
import { parseExperimentConfig } from '../config/parse-config';
import { checkReproduction } from './check-reproduction';
import { getReproduction, registerReproductions } from './registry';
import { runReproduction } from './run-reproduction';
import { claimForEveryColumn, regimeGate } from './column-claims';
import { rowMetrics } from './row-metrics';
import { metricTable } from './table-helpers';
import { DEFAULT_REGIME } from '../run/testability';
import { CURRENT_VERDICT_RULES, isNotRun, type Reproduction } from './types';

const dir = mkdtempSync(join(tmpdir(), 'mia-repro-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(async () => {
  await tf.setBackend('cpu');
});

const tiny = (dataset: string) =>
  parseExperimentConfig({
    name: `repro-test-${dataset}`,
    scale: 'smoke',
    seed: 3,
    dataset: { name: dataset, size: 1200 },
    partition: { preset: 'CCL4', maxPerRole: 100 },
    model: { name: 'mlp', options: { hidden: [32] } },
    training: { epochs: 8, batchSize: 32, lr: 0.1 },
    defenses: [
      { name: 'none', label: 'undefended' },
      { name: 'ccl', label: 'CCQL', params: { alpha: 0.5, concave: 'quadratic' } },
    ],
    attacks: ['loss', 'entropy'],
  });

// A two-column table: one column on a stand-in that runs, one on CIFAR-100, which is not available
// without --data-dir and must come out as "not run" with the reason, never dropped.
const demo: Reproduction = {
  name: 'demo-table1',
  paper: 'Demo',
  title: 'Demo Table 1: P1',
  source: 'nowhere, Table 1',
  async run(ctx) {
    const runs = { purchaseLike: await ctx.run('purchase', tiny('purchaseLike')), 'CIFAR-100': await ctx.run('cifar100', tiny('cifar100')) };
    const table = metricTable({
      title: 'P1',
      runs,
      rows: ['undefended', 'CCQL'],
      metric: rowMetrics.p1,
      format: 'num',
      paper: { CCQL: { purchaseLike: 0.5 } },
    });
    const loaded = await ctx.loadModel(tiny('purchaseLike'), 'CCQL');
    const weights = loaded.model.trainableVariables.length;
    loaded.model.dispose();
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
      notes: [`loaded the CCQL target back from the cache: ${weights} trainable variables`],
    };
  },
};

describe('runReproduction', () => {
  it('runs the experiments, marks unavailable data "not run", writes tables with the paper beside ours and evaluated claims', async () => {
    const store = new DirectoryArtifactStore(join(dir, 'cache'));
    const out = join(dir, 'out');
    const before = tf.memory().numTensors;
    const result = await runReproduction(demo, { scale: 'smoke', out, store });
    expect(tf.memory().numTensors).toBe(before);
    expect(isNotRun(result.runs.cifar100)).toBe(true);
    expect((result.runs.cifar100 as { notRun: string }).notRun).toMatch(/not run: dataset not available .*cifar100/);
    expect(isNotRun(result.runs.purchase)).toBe(false);
    const [table] = result.tables;
    expect(table!.columns).toEqual(['purchaseLike', 'CIFAR-100']);
    const ccql = table!.rows.find((r) => r.label === 'CCQL')!;
    expect(ccql.cells[0]!.paper).toBe(0.5);
    expect(ccql.cells[0]!.ours).toBeGreaterThan(0);
    expect(ccql.cells[1]!.ours).toBeUndefined();
    expect(ccql.cells[1]!.notRun).toMatch(/dataset not available/);
    // One column measured, one not run: the measured column decides (holds → "partial", a failure or
    // within noise carries over), or nothing is decided (not testable at this tiny scale).
    const measured = result.claims[0]!.columns!.find((c) => c.column === 'purchaseLike')!;
    const expectedVerdict = { holds: 'partial', 'does not hold': 'does not hold', 'within noise': 'within noise', 'not testable': 'not testable' } as const;
    expect(result.claims[0]!.verdict).toBe(expectedVerdict[measured.verdict as keyof typeof expectedVerdict]);
    expect(result.claims[0]!.columns!.find((c) => c.column === 'CIFAR-100')!.verdict).toBe('not evaluated');
    expect(result.claims[0]!.evidence).toMatch(
      /purchaseLike: (holds|does not hold|within noise|not testable)( —| at this scale:) .*CIFAR-100: not evaluated — not run: dataset not available/,
    );
    expect(result.verdictRules).toBe(CURRENT_VERDICT_RULES);
    // Cells carry the runner's bootstrap SE.
    expect(ccql.cells[0]!.seSource).toBe('bootstrap');
    expect(ccql.cells[0]!.se).toBeGreaterThan(0);
    expect(checkReproduction(result, { tables: [{ title: 'P1', rows: ['undefended', 'CCQL'], columns: ['purchaseLike', 'CIFAR-100'] }], claims: 1 })).toEqual(
      [],
    );
    // The checker does find gaps.
    expect(
      checkReproduction(result, {
        tables: [
          { title: 'P1', rows: ['RelaxLoss'], columns: ['SVHN'] },
          { title: 'Fig. 2', rows: [], columns: [] },
        ],
        claims: 2,
      }),
    ).toEqual(['P1: column "SVHN" missing', 'P1: row "RelaxLoss" missing', 'table "Fig. 2" missing (have "P1")', 'expected 2 claims, got 1']);
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toMatch(/\| CCQL \| \d\.\d{3} \(paper 0\.500\) \| not run \|/);
    expect(md).toMatch(
      /## Claims\n\nA comparison holds \(or does not\) only when its margin exceeds the critical value times the standard error[\s\S]*P1\(CCQL\) > P1\(undefended\)/,
    );
    expect(md).toContain('Not run here (dataset not available; point --data-dir at the files to run them): cifar100.');
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('<h2>Claims</h2>');
    expect(JSON.parse(readFileSync(join(out, 'reproduction.json'), 'utf8')).format).toBe('mia-reproduction-1');
    const runResults = JSON.parse(readFileSync(join(out, 'runs', 'purchase', 'results.json'), 'utf8'));
    expect(runResults.format).toBe('mia-results-1');
    expect(runResults.dataset.classes).toBe(100);
    // The 20 most exposed records per row, but no per-record CSV of every run in a reproduction.
    expect(runResults.rows[0].exposure.top.length).toBeGreaterThan(0);
    expect(existsSync(join(out, 'runs', 'purchase', 'exposure.csv'))).toBe(false);
    for (const row of runResults.rows) {
      for (const key of ['trainAccuracy', 'testAccuracy', 'lossGap', 'maxAdvantage', 'p1']) expect(row.se[key], key).toBeGreaterThan(0);
      expect(Object.keys(row.se.attacks).sort()).toEqual(['entropy', 'loss']);
    }
    // Seeded: a rerun comes from the cache with identical numbers.
    const again = await runReproduction(demo, { scale: 'smoke', out: join(dir, 'out2'), store });
    expect(again.tables).toEqual(result.tables);
  });

  it('registers reproductions by "<paper>-<table>" name and refuses bad or clashing names', () => {
    registerReproductions([demo]);
    expect(getReproduction('demo-table1')).toBe(demo);
    expect(() => registerReproductions([{ ...demo, name: 'Demo Table' }])).toThrow(/name must look like "<paper>-<table>".*got "Demo Table"/);
    expect(() => registerReproductions([{ ...demo }])).toThrow(/"demo-table1" is already registered/);
  });
});
