import * as tf from '@tensorflow/tfjs-core';
import { DirectoryArtifactStore, initDefaultBackend } from '@mia/experiments';
import { checkReproduction, runReproduction, type ExpectedReproduction, type ReproductionResult } from '@mia/experiments/reproduce';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ablationSetup, datasetSetup, type DatasetSetup } from './configs';
import { fig3Config } from './fig3';
import { fig5aConfig } from './fig5a';
import { fig6aConfig, fig6bConfig } from './fig6';
import { reproductions } from './index';
import { table1Config } from './table1';
import { table2Config } from './table2';

const dir = mkdtempSync(join(tmpdir(), 'mia-past-repro-'));
const store = new DirectoryArtifactStore(join(dir, 'cache'));
beforeAll(async () => {
  // The default backend of `mia` (native when its addon loads, else wasm), one thread per test fork.
  const { name } = await initDefaultBackend({ prefer: ['native', 'wasm'], threads: 1 });
  if (process.env['MIA_REQUIRE_NATIVE'] === '1') expect(name).toBe('native');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const datasets = ['Texas', 'Purchase', 'CIFAR-10', 'CIFAR-100', 'ImageNet'];
const bases = ['RelaxLoss', 'Mixup+MMD', 'AdvReg', 'Label smoothing', 'Confidence penalty', 'L1', 'Dropout', 'L2'];
const metrics6 = ['test accuracy', 'average advantage', 'loss gap'];

// What each report must contain at smoke scale: every table of the paper figure with all its rows
// and columns (unavailable ones as "not run" cells), and the number of claims.
const expected: Record<string, ExpectedReproduction> = {
  'past-table1': {
    tables: ['Table 1: P1 score', 'Table 1 (behind P1): test accuracy', 'Table 1 (behind P1): highest attack advantage', 'Table 1 (behind P1): loss gap'].map(
      (title) => ({ title, rows: ['PAST', 'w/o', 'w/o + tuning (λ=0)'], columns: datasets }),
    ),
    claims: 4,
  },
  'past-table2': {
    tables: ['Table 2: P1 score', 'Table 2 (behind P1): test accuracy', 'Table 2 (behind P1): highest attack advantage'].map((title) => ({
      title,
      rows: ['PAST', 'w/o'],
      columns: bases,
    })),
    claims: 3,
  },
  'past-fig3': {
    tables: [
      {
        title: "Fig. 3: advantage at each defense's setting chosen on the validation slice",
        rows: [
          'w/o',
          'PAST',
          'RelaxLoss',
          'Mixup+MMD',
          'AdvReg',
          'Label smoothing',
          'Confidence penalty',
          'L1',
          'Dropout',
          'L2',
          'Early stopping',
          'DP-SGD (ours)',
        ],
        columns: ['NN', 'Correct', 'Loss', 'Confidence', 'Entropy', 'M-entropy', 'Rotation', 'Translation'],
      },
      {
        title: 'DP-SGD (ours): the points of the DP-SGD curve',
        rows: ['DP-SGD ε=1', 'DP-SGD ε=64'],
        columns: ['test acc', 'validation acc', 'max adv', 'accountant ε', 'attack ε ≥', 'σ', 'steps', 'expected batch', 'epochs', 'lr'],
      },
      {
        title: "DP-SGD (ours): each ε's expected batch, epochs and learning rate, chosen on the validation slice (best validation accuracy)",
        rows: ['chosen: expected batch q·N', 'chosen: epochs', 'chosen: learning rate'],
        columns: ['DP-SGD ε=1', 'DP-SGD ε=64'],
      },
    ],
    // The paper's two, and our two about the DP-SGD curve.
    claims: 4,
  },
  'past-fig5a': {
    tables: [
      {
        title: 'Fig. 5a: test accuracy and advantages per setting',
        rows: ['Base', 'L1+Ours lambda=0.001', 'L1 lambda=0.001', 'L2 lambda=0.001', 'L2+Ours lambda=0.001'],
        columns: ['test accuracy', 'average advantage', 'highest advantage'],
      },
    ],
    claims: 4,
  },
  'past-fig6': {
    tables: [
      { title: 'Fig. 6a: PAST over α', rows: ['w/o', 'α = 0', 'α = 2.5'], columns: metrics6 },
      { title: 'Fig. 6b: PAST over tuning epochs', rows: ['w/o', '1 epochs', '2 epochs'], columns: metrics6 },
    ],
    claims: 6,
  },
  'past-fig1-2': {
    tables: [
      {
        title: 'Fig. 1b: privacy sensitivity |∂G/∂θ|',
        rows: [
          'share of parameters with sensitivity < 0.1',
          'share of the total held by the top 20 %',
          'mean sensitivity (×1000)',
          'mean sensitivity, last dense layer (×1000)',
        ],
        columns: ['undefended', 'after PAST', 'w/o + tuning (λ=0)'],
      },
      {
        title: 'Fig. 2a: weights before and after PAST',
        rows: ['Base (undefended)', 'Ours (after PAST)', 'w/o + tuning (λ=0)'],
        columns: ['share |w| < 0.01', 'mean |w|', 'Gini (shifted, PAST)'],
      },
      {
        title: 'Fig. 2b–c: Gini index and loss gap over PAST tuning',
        rows: ['epoch 0', 'epoch 1'],
        columns: ['Gini (shifted, PAST)', 'Gini (|w|)', 'loss gap'],
      },
    ],
    claims: 5,
  },
};

describe('PAST reproductions at smoke scale', () => {
  const results = new Map<string, ReproductionResult>();

  it('exports one reproduction per table/figure of the issue', () => {
    expect(reproductions.map((r) => r.name)).toEqual(Object.keys(expected));
  });

  for (const name of Object.keys(expected)) {
    it(`${name}: the report is complete and every claim is evaluated`, async () => {
      const reproduction = reproductions.find((r) => r.name === name)!;
      const before = tf.memory().numTensors;
      const result = await runReproduction(reproduction, { scale: 'smoke', out: join(dir, name), store });
      expect(tf.memory().numTensors).toBe(before);
      results.set(name, result);
      expect(checkReproduction(result, expected[name]!)).toEqual([]);
      // Only CIFAR-100 and ImageNet may be missing here; every claim still has numbers to rest on.
      for (const c of result.claims) expect(c.verdict, `${c.statement}: ${c.evidence}`).not.toBe('not evaluated');
    }, 120_000);
  }

  it('keeps unavailable columns as "not run" with the reason, and prints the paper\'s values', () => {
    const p1 = results.get('past-table1')!.tables[0]!;
    const past = p1.rows.find((r) => r.label === 'PAST')!;
    expect(past.cells[3]!.notRun).toMatch(/not run: dataset not available/);
    expect(past.cells[4]!.notRun).toMatch(/ImageNet is out of scope/);
    expect(past.cells.map((c) => c.paper)).toEqual([0.572, 0.812, 0.784, 0.575, 0.438]);
    expect(past.cells[0]!.ours).toBeGreaterThan(0);
    const t2 = results.get('past-table2')!.tables[0]!;
    // Dropout and L2 run as runner defenses now: numbers in both rows.
    for (const row of t2.rows) for (const cell of row.cells.slice(6)) expect(cell.ours).toBeTypeOf('number');
    // Fig. 3 at smoke scale runs on the Purchase stand-in: the augmentation attacks are not applicable there.
    const f3 = results.get('past-fig3')!.tables[0]!;
    expect(f3.rows[0]!.cells[6]!.notRun).toMatch(/not applicable: the augmentation attack .* this setup is tabular \(purchaseLike\)/);
    const points = (results.get('past-fig3')!.figures![0]!.spec as { data: { values: Array<{ setting: string }> } }).data.values;
    expect([...new Set(points.map((p) => p.setting).filter((l) => /^(Dropout|L2|Early stopping) /.test(l)))]).toEqual([
      'Dropout p=0.5',
      'L2 weightDecay=0.01',
      'Early stopping epochs=1',
    ]);
  });

  it("draws DP-SGD as a curve of its own (ours), outside the paper's claims", () => {
    const result = results.get('past-fig3')!;
    const points = (result.figures![0]!.spec as { data: { values: Array<{ defense: string; setting: string }> } }).data.values;
    expect([...new Set(points.filter((p) => p.defense === 'DP-SGD (ours)').map((p) => p.setting))]).toEqual(['DP-SGD ε=1', 'DP-SGD ε=64']);
    const [all, loss, ...ours] = result.claims;
    for (const c of [all!, loss!]) expect(c.statement).not.toMatch(/DP-SGD/);
    for (const c of [all!, loss!]) for (const col of c.columns ?? []) expect(col.column).not.toMatch(/DP-SGD/);
    expect(ours.map((c) => c.statement.startsWith('ours'))).toEqual([true, true]);
  });

  it('is seeded: a rerun of Fig. 3 (with its DP-SGD selection) from the same cache gives identical tables and claims', async () => {
    const again = await runReproduction(
      reproductions.find((r) => r.name === 'past-fig3')!,
      { scale: 'smoke', out: join(dir, 'again-fig3'), store },
    );
    expect(again.tables).toEqual(results.get('past-fig3')!.tables);
    expect(again.claims).toEqual(results.get('past-fig3')!.claims);
  }, 60_000);

  it('is seeded: a rerun from the same cache gives identical tables', async () => {
    const again = await runReproduction(
      reproductions.find((r) => r.name === 'past-fig6')!,
      { scale: 'smoke', out: join(dir, 'again'), store },
    );
    expect(again.tables).toEqual(results.get('past-fig6')!.tables);
  }, 60_000);
});

describe('paper-scale configs', () => {
  const setup = (key: Parameters<typeof datasetSetup>[0]) => datasetSetup(key, 'paper') as DatasetSetup;

  it("use the paper's datasets, models, epochs and PAST hyperparameters (PAST §4.1, docs/protocol.md §2.1)", () => {
    const c10 = table1Config(setup('cifar10'));
    expect([
      c10.dataset.name,
      c10.model.name,
      c10.training.epochs,
      c10.training.lr,
      c10.training.batchSize,
      c10.partition.preset,
      c10.partition.maxPerRole,
    ]).toEqual(['cifar10', 'resnet18', 100, 0.01, 128, 'PAST6', undefined]);
    expect(c10.training).toMatchObject({ optimizer: 'sgd', momentum: 0.9, weightDecay: 5e-4, schedule: { type: 'cosine' } });
    expect(c10.defenses[1]!.params).toEqual({ lambda: 1e-3, tuneEpochs: 50, alpha: 2.5 });
    const c100 = table1Config(setup('cifar100'));
    expect([c100.dataset.name, c100.model.name, c100.defenses[1]!.params]).toEqual(['cifar100', 'densenet121', { lambda: 1e-4, tuneEpochs: 20, alpha: 2.5 }]);
    for (const [key, name] of [
      ['texas', 'texas100'],
      ['purchase', 'purchase100'],
    ] as const) {
      const c = table1Config(setup(key));
      expect([c.dataset.name, c.model.name, c.training.epochs, c.defenses[1]!.params]).toEqual([
        name,
        'mlp',
        100,
        { lambda: 1e-5, tuneEpochs: 20, alpha: 2.5 },
      ]);
    }
    expect(datasetSetup('imagenet', 'paper')).toEqual({ notRun: expect.stringMatching(/ImageNet/) });
    expect(c10.attacks).toEqual(['nn-mlh', 'correctness', 'loss', 'confidence', 'entropy', 'modifiedEntropy', 'rotation', 'translation']);
    expect(c10.augmentation).toEqual({ rotationDegrees: 1, translationDistance: 1 });
    expect(table1Config(setup('purchase')).attacks).not.toContain('rotation');
  });

  it("run the ablations on the paper's datasets with the paper's grids", () => {
    const t2 = table2Config(ablationSetup('cifar10', 'paper'));
    expect([t2.dataset.name, t2.model.name]).toEqual(['cifar10', 'resnet18']);
    expect(t2.defenses.find((d) => d.label === 'PAST on RelaxLoss')!.params).toMatchObject({ alpha: 1.5, tuneEpochs: 50, base: { name: 'relaxloss' } });
    const f3 = fig3Config(ablationSetup('cifar10', 'paper'), 'paper');
    expect(f3.defenses.find((d) => d.label === 'PAST')!.grid).toEqual({ alpha: [0.5, 0.8, 1.0, 1.1, 1.2, 1.4, 1.5, 1.7, 2.0, 2.5] });
    expect(f3.defenses.find((d) => d.label === 'Dropout')!.grid).toEqual({ p: [0.01, 0.02, 0.05, 0.1, 0.3, 0.5, 0.7, 0.9] });
    expect(f3.defenses.find((d) => d.label === 'Early stopping')!.grid).toEqual({ epochs: [10, 20, 40, 60, 80] });
    expect(f3.attacks).toContain('rotation');
    const f5 = fig5aConfig(ablationSetup('cifar100', 'paper'), 'paper');
    expect([f5.dataset.name, f5.model.name, f5.defenses.length]).toEqual(['cifar100', 'densenet121', 5]);
    const f6a = fig6aConfig(ablationSetup('cifar100', 'paper'), 'paper');
    expect([f6a.dataset.name, f6a.defenses[1]!.grid]).toEqual(['cifar100', { alpha: [0, 0.5, 0.8, 1.0, 1.1, 1.2, 1.4, 1.5, 1.7, 2.0, 2.5] }]);
    const f6b = fig6bConfig(ablationSetup('cifar10', 'paper'), 'paper');
    expect([f6b.dataset.name, f6b.defenses[1]!.grid]).toEqual(['cifar10', { tuneEpochs: [5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 65, 70, 75] }]);
  });
});
