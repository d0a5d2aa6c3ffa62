import * as tf from '@tensorflow/tfjs-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DirectoryArtifactStore, initDefaultBackend } from '@mia/experiments';
import { checkReproduction, runReproduction, type ExpectedReproduction, type ReproductionResult } from '@mia/experiments/reproduce';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { columnConfig, DATASET_COLUMNS } from './configs';
import { reproductions } from './index';

const dir = mkdtempSync(join(tmpdir(), 'mia-sam-repro-'));
const store = new DirectoryArtifactStore(join(dir, 'cache'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(async () => {
  // The default backend of `mia` (native when its addon loads, else wasm), one thread per test fork.
  const { name } = await initDefaultBackend({ prefer: ['native', 'wasm'], threads: 1 });
  if (process.env['MIA_REQUIRE_NATIVE'] === '1') expect(name).toBe('native');
});

const rows = (names: readonly string[]) => DATASET_COLUMNS.flatMap((d) => names.map((n) => `${d} · ${n}`));
const algos = rows(['SGD', 'SAM', 'SharpReg']);
// Every table, row and column the paper has, written out (the checker fails on any gap).
const EXPECTED: Record<string, ExpectedReproduction> = {
  'sam-table1': {
    tables: [
      {
        title: 'Table 1: privacy vs generalisation of SGD, SAM and SharpReg',
        rows: algos,
        columns: ['Test acc', 'Best single-query acc', 'Best multi-query acc'],
      },
    ],
    claims: 4,
  },
  'sam-table2': {
    tables: [
      {
        title: 'Table 2: relative change of SAM and SharpReg vs SGD',
        rows: rows(['SAM', 'SharpReg']),
        columns: ['Test acc diff', 'DSQ attack diff', 'Label-only attack diff'],
      },
    ],
    claims: 2,
  },
  'sam-table3': {
    tables: [
      {
        title: 'Table 3: accuracy of each direct single-query attack',
        rows: algos,
        columns: ['NN', 'Confidence', 'Correctness', 'Entropy', 'Modified entropy'],
      },
    ],
    claims: 2,
  },
  'sam-table4': {
    tables: [
      {
        title: 'Table 4: SharpReg vs MemGuard, AdvReg and SELENA',
        rows: [
          ...[
            'SGD',
            'SAM',
            'MemGuard',
            'AdvReg',
            'SELENA',
            'SharpReg(1.5,0.01,0.1)',
            'SharpReg(1.5,0.01,0.3)',
            'SharpReg(1.5,0.01,0.5)',
            'SharpReg(1.5,0.01,0.7)',
          ].map((r) => `CIFAR-100 · ${r}`),
          ...['SGD', 'SAM', 'AdvReg', 'SELENA', 'SharpReg(1.5,0.01,0.1)'].map((r) => `CIFAR-10 · ${r}`),
          ...['SGD', 'SAM', 'MemGuard', 'AdvReg', 'SELENA', 'SharpReg(2.0,0.01,0.6)'].map((r) => `Purchase-100 · ${r}`),
          ...['SGD', 'SAM', 'MemGuard', 'AdvReg', 'SELENA', 'SharpReg(1.0,0.001,0.05)'].map((r) => `Texas-100 · ${r}`),
        ],
        columns: ['Train acc', 'Test acc', 'Best single query', 'Best multi query'],
      },
    ],
    claims: 5,
  },
  'sam-fig3': {
    tables: [
      {
        title: 'Fig. 3a / 5a: test accuracy per influence-entropy bucket',
        rows: ['Bucket 1', 'Bucket 2', 'Bucket 3', 'Bucket 4', 'Bucket 5'],
        columns: ['SGD', 'SAM', 'SharpReg', 'SAM − SGD', 'SharpReg − SGD'],
      },
      { title: 'Fig. 3b–c: test points per bucket', rows: ['Bucket 1', 'Bucket 2', 'Bucket 3', 'Bucket 4', 'Bucket 5'], columns: ['Test points'] },
      {
        title: 'Fig. 3b–c: mean memorisation of the top-1 influential training point',
        rows: ['Bucket 1', 'Bucket 2', 'Bucket 3', 'Bucket 4', 'Bucket 5'],
        columns: ['Mean top-1 memorization'],
      },
    ],
    claims: 3,
  },
};

describe('SAM-privacy reproductions at smoke scale', () => {
  const results = new Map<string, ReproductionResult>();
  for (const reproduction of reproductions) {
    it(`${reproduction.name}: every table, row, column and claim is present and evaluated`, async () => {
      const before = tf.memory().numTensors;
      const result = await runReproduction(reproduction, { scale: 'smoke', out: join(dir, reproduction.name), store });
      expect(tf.memory().numTensors).toBe(before);
      results.set(reproduction.name, result);
      expect(checkReproduction(result, EXPECTED[reproduction.name]!)).toEqual([]);
      // CIFAR-100 needs --data-dir: its cells say so instead of disappearing.
      const c100 = result.tables[0]!.rows.find((r) => r.label.startsWith('CIFAR-100'));
      if (c100 !== undefined) expect(c100.cells[0]!.notRun).toMatch(/not run: dataset not available/);
    }, 120_000);
  }

  it('Table 1 with its runs on 2 worker threads (the columns started together, each seed attacked as its run ends) equals the run in this thread', async () => {
    const inThread = results.get('sam-table1')!;
    const parallel = await runReproduction(
      reproductions.find((r) => r.name === 'sam-table1')!,
      {
        scale: 'smoke',
        out: join(dir, 'sam-table1-workers'),
        store: new DirectoryArtifactStore(join(dir, 'cache-workers')),
        workers: 2,
      },
    );
    expect(parallel.tables).toEqual(inThread.tables);
    expect(parallel.claims).toEqual(inThread.claims);
  }, 300_000);

  it("Table 4 has measured MemGuard and SELENA rows; MemGuard keeps SGD's accuracies (same model, labels kept)", () => {
    const t4 = results.get('sam-table4')!.tables[0]!;
    const row = (label: string) => t4.rows.find((r) => r.label === label)!;
    for (const label of ['Purchase-100 · MemGuard', 'Texas-100 · MemGuard', 'Purchase-100 · SELENA', 'CIFAR-10 · SELENA']) {
      for (const cell of row(label).cells) expect(cell.ours, label).toBeTypeOf('number');
    }
    expect(
      row('Purchase-100 · MemGuard')
        .cells.slice(0, 2)
        .map((c) => c.ours),
    ).toEqual(
      row('Purchase-100 · SGD')
        .cells.slice(0, 2)
        .map((c) => c.ours),
    );
    const memGuardClaim = results.get('sam-table4')!.claims[3]!;
    expect(memGuardClaim.verdict).not.toBe('not evaluated');
    // CIFAR-10 has no MemGuard row, so the claim is over the tabular columns only; at smoke scale SGD is out of
    // SAM-privacy's regime there or its attacks (the runner's and the SharpReg protocol's) are saturated, so the
    // columns are not testable (with the reason), or decided with a margin.
    // CIFAR-100 is not available here: decided on a subset at most ("partial"), the columns listed.
    expect(memGuardClaim.evidence).toMatch(
      /(^|[.;] )Purchase-100(: not testable at this scale: (undefended|saturated)|: single MemGuard vs SGD: (holds|does not hold|within noise) — \d+\.\d vs \d+\.\d, Δ = [+−]\d+\.\d ± \d+\.\d)/,
    );
    expect(memGuardClaim.evidence).toMatch(/CIFAR-100: not evaluated — not run: dataset not available/);
    expect(memGuardClaim.evidence).not.toMatch(/CIFAR-10:/);
  });

  it('tables 1–3 rest on the same evaluations (shared cache): Table 2 is the relative change of Table 1', () => {
    const t1 = results.get('sam-table1')!.tables[0]!;
    const t2 = results.get('sam-table2')!.tables[0]!;
    const cell = (t: typeof t1, row: string, col: number) => t.rows.find((r) => r.label === row)!.cells[col]!.ours!;
    expect(cell(t2, 'CIFAR-10 · SAM', 0)).toBeCloseTo(cell(t1, 'CIFAR-10 · SAM', 0) / cell(t1, 'CIFAR-10 · SGD', 0) - 1, 12);
    expect(cell(t2, 'Texas-100 · SharpReg', 1)).toBeCloseTo(cell(t1, 'Texas-100 · SharpReg', 1) / cell(t1, 'Texas-100 · SGD', 1) - 1, 12);
    // Paper values beside ours (Table 1, CIFAR-10 SAM test accuracy 96.54 % ± 0.06 %).
    const sam = t1.rows.find((r) => r.label === 'CIFAR-10 · SAM')!.cells[0]!;
    expect([sam.paper, sam.paperStd]).toEqual([0.9654, 0.0006]);
  });
});

describe('paper-scale configs', () => {
  it("use the paper's datasets, models and optimiser settings (App. C.4, docs/protocol.md §2.4)", () => {
    const c = Object.fromEntries(DATASET_COLUMNS.map((d) => [d, columnConfig(d, 'paper')]));
    expect(Object.values(c).map((x) => x.dataset.name)).toEqual(['cifar100', 'cifar10', 'purchase100', 'texas100']);
    expect(Object.values(c).map((x) => x.model.name)).toEqual(['wrn-16-8', 'wrn-16-8', 'mlp', 'mlp']);
    expect(Object.values(c).map((x) => [x.training.epochs, x.training.batchSize])).toEqual([
      [200, 128],
      [200, 128],
      [100, 512],
      [75, 128],
    ]);
    expect(c['CIFAR-100']!.training).toMatchObject({
      lr: 0.1,
      nesterov: true,
      momentum: 0.9,
      weightDecay: 5e-4,
      schedule: { type: 'multistep', milestones: [60, 120, 160], gamma: 0.2 },
    });
    expect(c['Purchase-100']!.partition.maxPerRole).toBeUndefined();
    expect(c['Texas-100']!.defenses).toEqual([
      { name: 'none', label: 'SGD', params: {} },
      { name: 'sam', label: 'SAM', params: { rho: 0.1 } },
      { name: 'sharpreg', label: 'SharpReg', params: { lambda: 1.0, rho: 0.001, xi: 0.05 } },
    ]);
  });
});
