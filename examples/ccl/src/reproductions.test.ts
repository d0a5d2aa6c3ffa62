import * as tf from '@tensorflow/tfjs-core';
import { DirectoryArtifactStore, initDefaultBackend, type ExperimentResults } from '@mia/experiments';
import { checkReproduction, runReproduction, type ReproductionResult } from '@mia/experiments/reproduce';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reproductions } from './index';

// All four reproductions at smoke scale, one shared model cache (Fig. 2 reuses Fig. 4's α sweep).
const dir = mkdtempSync(join(tmpdir(), 'mia-ccl-repro-'));
const store = new DirectoryArtifactStore(join(dir, 'cache'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(async () => {
  // The default backend of `mia` (native when its addon loads, else wasm), one thread per test fork.
  const { name } = await initDefaultBackend({ prefer: ['native', 'wasm'], threads: 1 });
  if (process.env['MIA_REQUIRE_NATIVE'] === '1') expect(name).toBe('native');
});

const byName = (name: string) => reproductions.find((r) => r.name === name)!;
const run = (name: string, out = name) => runReproduction(byName(name), { scale: 'smoke', out: join(dir, out), store });
const DATASETS = ['Texas', 'Purchase', 'ImageNet', 'CIFAR-10', 'CIFAR-100'];
const T1_ROWS = ['CCQL', 'CCEL', 'w/o', 'w/o (early stop)'];
const ALPHA_ROWS = ['α=0.1', 'α=0.5', 'α=0.9', 'CE (α=1)'];
const ATTACK_COLUMNS = ['test acc', 'correctness', 'loss', 'confidence', 'entropy', 'modifiedEntropy', 'nn-mlh', 'rotation', 'translation', 'max adv'];
const FIG2_ROWS = [
  'w/o',
  'CCQL α=0.1',
  'CCQL α=0.5',
  'CCQL α=0.9',
  'CCEL α=0.1',
  'CCEL α=0.5',
  'CCEL α=0.9',
  'RelaxLoss α=0.2',
  'RelaxLoss α=1.6',
  'Mixup+MMD λ=0.1',
  'Mixup+MMD λ=2',
  'AdvReg α=0.8',
  'AdvReg α=1.8',
  'Dropout p=0.1',
  'Dropout p=0.5',
  'Label smoothing ε=0.1',
  'Label smoothing ε=0.5',
  'Confidence penalty β=0.1',
  'Confidence penalty β=2',
  'Early stopping epoch=1',
  'Early stopping epoch=2',
  'w/o (CCL5)',
];

const evaluated = (r: ReproductionResult) => r.claims.every((c) => c.verdict !== 'not evaluated');

describe('CCL reproductions at smoke scale', () => {
  it('registers ccl-table1, ccl-fig4, ccl-fig1 and ccl-fig2', () => {
    expect(reproductions.map((r) => r.name)).toEqual(['ccl-table1', 'ccl-fig4', 'ccl-fig1', 'ccl-fig2']);
  });

  it('ccl-table1: every dataset column and row, the paper beside ours, CIFAR-100 and ImageNet "not run" with the reason; cached rerun identical', async () => {
    const before = tf.memory().numTensors;
    const result = await run('ccl-table1');
    expect(tf.memory().numTensors).toBe(before);
    const tables = [
      'Table 1: P1 score',
      'Table 1 (support): test accuracy',
      'Table 1 (support): train accuracy',
      'Table 1 (support): highest attack advantage',
      'Table 1 (support): loss variance of the members',
      'Table 1 (support): validation accuracy',
    ];
    expect(checkReproduction(result, { tables: tables.map((title) => ({ title, rows: T1_ROWS, columns: DATASETS })), claims: 4 })).toEqual([]);
    const p1 = result.tables[0]!;
    const ccql = p1.rows.find((r) => r.label === 'CCQL')!;
    expect(ccql.cells.map((c) => c.paper)).toEqual([0.607, 0.868, 0.61, 0.769, 0.487]);
    expect(ccql.cells[2]!.notRun).toMatch(/ImageNet .* out of scope/);
    expect(ccql.cells[4]!.notRun).toMatch(/not run: dataset not available .*cifar100/);
    for (const i of [0, 1, 3]) expect(ccql.cells[i]!.ours).toBeGreaterThan(0);
    expect(result.claims.map((c) => c.statement)).toEqual([
      'P1(CCQL) > P1(undefended) on every dataset',
      'P1(CCEL) > P1(undefended) on every dataset',
      'the highest attack advantage of CCQL < that of the undefended model on every dataset',
      'P1(CCQL) > P1(w/o (early stop)) on every dataset (better than stopping early at matched accuracy)',
    ]);
    expect(evaluated(result)).toBe(true);
    // At smoke scale no undefended model is in CCL's regime: every column run is "not testable" with the reason,
    // ImageNet and CIFAR-100 "not evaluated" (not run).
    expect(result.claims.map((c) => c.verdict)).toEqual(['not testable', 'not testable', 'not testable', 'not testable']);
    // Read from the structured column decisions (their rendering is the report's business).
    expect(result.claims[0]!.columns!.map((c) => [c.column, c.verdict])).toEqual([
      ['Texas', 'not testable'],
      ['Purchase', 'not testable'],
      ['ImageNet', 'not evaluated'],
      ['CIFAR-10', 'not testable'],
      ['CIFAR-100', 'not evaluated'],
    ]);
    expect(result.claims[0]!.columns![0]!.reason).toMatch(/^undefended /);
    expect(result.claims[0]!.columns![2]!.reason).toMatch(/^not run/);
    // The max advantage on CIFAR-10 includes the augmentation attacks; the tabular columns have none.
    const attacksOfRun = (dataset: string) => {
      for (const id of readdirSync(join(dir, 'ccl-table1', 'runs')).filter((d) => !d.endsWith('-selection'))) {
        const r = JSON.parse(readFileSync(join(dir, 'ccl-table1', 'runs', id, 'results.json'), 'utf8')) as ExperimentResults;
        if (r.dataset.name === dataset) return r.rows[0]!.attacks.map((a) => a.attack);
      }
      return [];
    };
    expect(attacksOfRun('cifar10')).toEqual(['correctness', 'loss', 'confidence', 'entropy', 'modifiedEntropy', 'nn-mlh', 'rotation', 'translation']);
    expect(attacksOfRun('texasLike')).toEqual(['correctness', 'loss', 'confidence', 'entropy', 'modifiedEntropy', 'nn-mlh']);
    // The early-stopping control (its epoch read off a selection run's validation curve) and its
    // validation accuracy are there on every run column.
    expect(
      readdirSync(join(dir, 'ccl-table1', 'runs'))
        .filter((d) => d.endsWith('-selection'))
        .sort(),
    ).toEqual(['cifar10-selection', 'purchase-selection', 'texas-selection']);
    expect(result.notes.join('\n')).toMatch(/Texas: epoch [12] \(w\/o validation [\d.]+ % vs CCQL's [\d.]+ %\)/);
    const validation = result.tables[4]!;
    for (const row of validation.rows) for (const i of [0, 1, 3]) expect(row.cells[i]!.ours).toBeGreaterThanOrEqual(0);
    const again = await run('ccl-table1', 'table1-again');
    expect(again.tables).toEqual(result.tables);
  });

  it('ccl-fig4: accuracy, advantage and loss variance for every α and CE, with five evaluated trend claims', async () => {
    const result = await run('ccl-fig4');
    const tables = ['Fig. 4a: test accuracy vs α', 'Fig. 4b: highest attack advantage vs α', 'Fig. 4c: loss variance of the members vs α'];
    expect(checkReproduction(result, { tables: tables.map((title) => ({ title, rows: ALPHA_ROWS, columns: ['CCQL', 'CCEL'] })), claims: 5 })).toEqual([]);
    expect(evaluated(result)).toBe(true);
    // The CE row is one model shown in both columns.
    const ce = result.tables[2]!.rows.find((r) => r.label === 'CE (α=1)')!;
    expect(ce.cells[0]!.ours).toBe(ce.cells[1]!.ours);
    // The CE model is far from CCL's regime at smoke scale: the trends are not testable, with the reason.
    expect(result.claims.map((c) => c.verdict)).toEqual(Array(5).fill('not testable'));
    expect(result.claims[0]!.evidence).toMatch(/^not testable at this scale: undefended train accuracy \d+\.\d % < 90\.0 %/);
    expect(result.figures!.map((f) => f.id)).toEqual(['ccl-fig4']);
  });

  it('ccl-fig1: member loss mean and variance per epoch for CE, FL and CCQL, three evaluated claims', async () => {
    const before = tf.memory().numTensors;
    const result = await run('ccl-fig1');
    expect(tf.memory().numTensors).toBe(before);
    const columns = ['epoch 1', 'epoch 2', 'epoch 3'];
    expect(
      checkReproduction(result, {
        tables: ['Fig. 1a: mean loss of the members', 'Fig. 1b: loss variance of the members'].map((title) => ({ title, rows: ['CE', 'FL', 'CCQL'], columns })),
        claims: 3,
      }),
    ).toEqual([]);
    expect(evaluated(result)).toBe(true);
    expect(result.claims[0]!.evidence).toMatch(
      /^epoch 3, variance of the members' loss: FL \d\.\d{3} vs CE \d\.\d{3}, Δ = [+−]\d\.\d{3} ± \d\.\d{3} \(2 SE = \d\.\d{3}\)$/,
    );
    expect(result.claims[0]!.decision).toMatchObject({ labels: ['FL', 'CE'], direction: 'less' });
  });

  it('ccl-fig2: every defense setting of the seven baselines and CCL, the augmentation attacks "not applicable" on the tabular stand-in, five evaluated claims', async () => {
    const result = await run('ccl-fig2');
    expect(
      checkReproduction(result, {
        tables: [
          { title: 'Fig. 2: test accuracy and attack advantage per defense setting', rows: FIG2_ROWS, columns: ATTACK_COLUMNS },
          {
            title: 'Fig. 2 (text): loss-attack advantage at the setting chosen on the validation slice',
            rows: ['CCQL', 'Dropout'],
            columns: ['loss advantage'],
          },
        ],
        claims: 5,
      }),
    ).toEqual([]);
    expect(evaluated(result)).toBe(true);
    // The figures' smoke setup has no validation slice: no setting can be chosen without reading the evaluation data.
    for (const c of result.claims) expect(c.evidence).toMatch(/^not testable at this scale: (.*saturated|.*undefended|the run records no validation accuracy)/);
    const table = result.tables[0]!;
    expect(table.rows.map((r) => r.label)).toEqual(FIG2_ROWS);
    for (const row of table.rows) {
      expect(row.cells[7]!.notRun).toMatch(/not applicable: the augmentation attacks .* this dataset is tabular \(purchase\)/);
      expect(row.cells[0]!.ours).toBeGreaterThanOrEqual(0);
    }
    expect(result.tables[1]!.rows.map((r) => r.cells[0]!.paper)).toEqual([0.184, 0.2967]);
    // The α sweep came from Fig. 4's cache: the main run trained only the CCL4 baselines.
    expect(Object.keys(result.runs)).toEqual(['main', 'reference', 'dropout-0.1', 'dropout-0.5', 'early-stop-1', 'early-stop-2']);
  });
});
