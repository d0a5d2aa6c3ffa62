import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DirectoryArtifactStore } from '../store/artifact-store';
import { parseExperimentConfig } from '../config/parse-config';
import { DEFAULT_REGIME } from '../run/testability';
import { claimForEveryColumn, regimeGate } from './column-claims';
import { reproductionSummary } from './reproduction-summary';
import { shortStatement } from './reproduction-report';
import { rowMetrics } from './row-metrics';
import { runReproduction } from './run-reproduction';
import { metricTable } from './table-helpers';
import type { Reproduction } from './types';

const dir = mkdtempSync(join(tmpdir(), 'mia-repro-summary-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(async () => {
  await tf.setBackend('cpu');
});

// One epoch: the undefended model is far from the regime, so every decided column is "not testable".
const tiny = (dataset: string, seed: number) =>
  parseExperimentConfig({
    name: `summary-${dataset}-${seed}`,
    scale: 'smoke',
    seed,
    dataset: { name: dataset, size: 1000 },
    partition: { preset: 'CCL4', maxPerRole: 60 },
    model: { name: 'mlp', options: { hidden: [8] } },
    training: { epochs: 1, batchSize: 32, lr: 0.1 },
    defenses: [
      { name: 'none', label: 'undefended' },
      { name: 'ccl', label: 'CCQL', params: { alpha: 0.5, concave: 'quadratic' } },
    ],
    attacks: ['loss'],
  });

// What made a smoke reproduction repeat itself: CIFAR-100 (not available) in every table, and
// claims over columns whose verdict is "not testable".
const demo: Reproduction = {
  name: 'demo-summary',
  paper: 'Demo',
  title: 'Demo',
  source: 'nowhere',
  async run(ctx) {
    const runs = {
      purchaseLike: await ctx.run('purchase', tiny('purchaseLike', 1)),
      'CIFAR-100': await ctx.run('cifar100', tiny('cifar100', 1)),
      'CIFAR-100 (seed 2)': await ctx.run('cifar100-2', tiny('cifar100', 2)),
    };
    const tables = (['p1', 'testAccuracy', 'maxAdvantage'] as const).map((m) =>
      metricTable({ title: m, runs, rows: ['undefended', 'CCQL'], metric: rowMetrics[m], format: m === 'p1' ? 'num' : 'pct' }),
    );
    const gate = regimeGate({ runs, undefended: 'undefended', compared: ['CCQL', 'undefended'], regime: DEFAULT_REGIME });
    const claims = ['P1(CCQL) > P1(undefended) on every dataset', 'P1(CCQL) ≥ P1(undefended) − 0.1 on every dataset'].map((statement) =>
      claimForEveryColumn({ table: tables[0]!, statement, rowA: 'CCQL', rowB: 'undefended', direction: 'greater', gate }),
    );
    return { tables, claims };
  },
};

describe('what `mia reproduce` prints', () => {
  it('says each thing once: the log and the summary repeat no line, the not-run reason is given once, a verdict is not doubled', async () => {
    const log: string[] = [];
    const out = join(dir, 'out');
    const result = await runReproduction(demo, { scale: 'smoke', out, store: new DirectoryArtifactStore(join(dir, 'cache')), onLog: (l) => log.push(l) });
    const summary = reproductionSummary(result, out).split('\n');
    expect(result.claims.map((c) => c.verdict)).toEqual(['not testable', 'not testable']);
    // Table headers and rules repeat by design (same columns), and claims over the same columns share
    // their sub-verdicts; no paragraph is said twice: not the reason for not running, not a claim's evidence.
    const said = [...log, ...summary].filter((l) => l.length >= 100);
    expect(said.filter((l, i) => said.indexOf(l) !== i)).toEqual([]);
    const reason = (result.runs.cifar100 as { notRun: string }).notRun;
    expect(reason).toMatch(/^not run: dataset not available \(loadDataset: cifar100 is not downloaded automatically/);
    expect(summary.join('\n').split(reason)).toHaveLength(2); // once, under the first table
    expect(summary).toContain(`- ${reason}`);
    expect(summary.join('\n')).not.toMatch(/not testable: not testable|holds: holds/);
    expect(summary.filter((l) => l === '  _not testable on purchaseLike; not run on CIFAR-100, CIFAR-100 (seed 2)_')).toHaveLength(2);
    expect(summary).toContain('  The evidence of “P1(CCQL) > P1(undefended) on every dataset” above.');
  }, 120_000);
});

describe('shortStatement: how a claim refers back to an earlier claim with the same evidence', () => {
  const fig1b = 'Fig. 1b: only a small fraction of parameters carries the privacy sensitivity — the top 20 % hold ≥ 80 % of it';
  const long = 'P1 of every defense is above that of the undefended model on every dataset, at matched accuracy, over the three training seeds';
  it('by its label when no other claim starts with it, else by its statement cut at a word within 80 characters', () => {
    expect(shortStatement(fig1b, [fig1b, long])).toBe('Fig. 1b');
    expect(shortStatement('Table 3 (CIFAR-10): SAM lowers NN-SEL', ['Table 3 (CIFAR-10): SAM lowers NN-SEL'])).toBe('Table 3 (CIFAR-10)');
    const twin = 'Fig. 1b: another statement';
    expect(shortStatement(fig1b, [fig1b, twin])).toBe('Fig. 1b: only a small fraction of parameters carries the privacy sensitivity —…');
    expect(shortStatement(long, [long])).toBe('P1 of every defense is above that of the undefended model on every dataset, at…');
    expect(shortStatement(long, [long]).length).toBeLessThanOrEqual(80);
    expect(shortStatement('P1(CCQL) > P1(undefended) on every dataset', [])).toBe('P1(CCQL) > P1(undefended) on every dataset');
  });
});
