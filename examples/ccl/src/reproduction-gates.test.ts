import { expandGrid, type DefenseRow, type ExperimentConfig, type ExperimentResults } from '@mia/experiments';
import { aggregateSeeds, isNotRun, seedRuns, type ReproductionContext, type ReproductionScale, type RunOutcome } from '@mia/experiments/reproduce';
import { describe, expect, it } from 'vitest';
import { CCL_ATTACKS } from './configs';
import { fig2 } from './fig2';
import { CE_LABEL, fig4 } from './fig4';
import { CCL_MAX_TEST_DROP, EARLY_STOP_CONTROL, table1 } from './table1';

/** What a fake row measures: accuracies, one advantage for every attack, its AUC, validation accuracy and curve. */
interface FakeRow {
  readonly train: number;
  readonly test: number;
  readonly advantage: number;
  readonly auc: number;
  readonly validation?: number;
  readonly curve?: readonly number[];
}

const se = (v: number) => ({
  method: 'bootstrap' as const,
  resamples: 200,
  trainAccuracy: v,
  testAccuracy: v,
  lossGap: v,
  maxAdvantage: v,
  p1: v,
  attacks: Object.fromEntries(CCL_ATTACKS.map((a) => [a, { advantage: v, auc: v }])),
});

/** A run's results as the runner would shape them, every defense of `config` (grids expanded) with the numbers `of` gives it. */
function fakeResults(config: ExperimentConfig, classes: number, of: (label: string, config: ExperimentConfig) => FakeRow): ExperimentResults {
  const rows = expandGrid(config).defenses.map((d): DefenseRow => {
    const label = d.label ?? d.name;
    const r = of(label, config);
    return {
      defense: d.name,
      label,
      params: d.params,
      trainAccuracy: r.train,
      testAccuracy: r.test,
      ...(r.validation === undefined ? {} : { validationAccuracy: r.validation }),
      lossGap: 0.5,
      lossVariance: 0.1,
      attacks: config.attacks.map((a) => {
        const attack = typeof a === 'string' ? a : (a.label ?? a.name);
        return { attack, accuracy: (1 + r.advantage) / 2, advantage: r.advantage, auc: r.auc, tprAtFpr: [], roc: { fpr: [], tpr: [] } };
      }),
      maxAdvantage: r.advantage,
      p1: (2 * r.test * (1 - r.advantage)) / (r.test + 1 - r.advantage),
      lossHistogram: { edges: [], members: [], nonMembers: [] },
      cache: { target: 'hit', shadow: 'hit' },
      trainSeconds: 0,
      se: se(0.01),
      ...(r.curve === undefined ? {} : { trainingMetrics: { target: { validationCurve: [...r.curve] }, shadow: undefined } }),
    } as DefenseRow;
  });
  return {
    format: 'mia-results-1',
    config,
    dataset: { name: config.dataset.name, source: 'stand-in', description: 'constructed', size: 10_000, classes },
    partition: { preset: 'CCL4', sizes: { target_train: 1000, target_test: 1000 }, digest: 'd' },
    backend: 'cpu',
    versions: {},
    startedAt: '2026-01-01T00:00:00.000Z',
    seconds: 0,
    rows,
    notes: [],
  };
}

/** A context whose runs return constructed results (nothing trains); `calls` records every run asked for. */
function fakeContext(scale: ReproductionScale, results: (id: string, config: ExperimentConfig) => RunOutcome) {
  const calls: Array<{ id: string; config: ExperimentConfig }> = [];
  const ctx: ReproductionContext = {
    scale,
    store: undefined as never,
    log: () => undefined,
    async run(id, config) {
      calls.push({ id, config });
      return results(id, config);
    },
    async runSeeds(id, config, k) {
      const plan = seedRuns(id, config, k);
      const outcomes: RunOutcome[] = [];
      for (const r of plan) outcomes.push(await ctx.run(r.id, r.config));
      const notRun = outcomes.find(isNotRun);
      if (notRun !== undefined) return notRun;
      return k === 1
        ? outcomes[0]!
        : aggregateSeeds(
            outcomes as ExperimentResults[],
            plan.map((r) => r.trainingSeed),
          );
    },
    loadModel: () => Promise.reject(new Error('no models here')),
  };
  return { ctx, calls };
}

const classesOf = (config: ExperimentConfig) => (config.dataset.name.startsWith('cifar10') && !config.dataset.name.startsWith('cifar100') ? 10 : 100);
const notRunCifar100 = (config: ExperimentConfig): RunOutcome | undefined =>
  config.dataset.name === 'cifar100' ? { notRun: 'not run: dataset not available (cifar100)' } : undefined;

describe("ccl-table1: each training seed's early-stopping control is matched on its own seed's validation curve", () => {
  // Seed s's undefended validation curve is (s + 1)/100 + e/30 after epoch e; every seed's CCQL reaches 0.3 on validation,
  // so the epoch closest to it depends on the seed (9 for seed 0, 8 for seeds 1 and 2): reusing seed 0's would be wrong.
  const curveOf = (seed: number) => Array.from({ length: 30 }, (_, e) => (seed + 1) / 100 + (e + 1) / 30);
  const numbers = (label: string, config: ExperimentConfig, ccqlTest: number): FakeRow => {
    const seed = config.trainingSeed ?? config.seed;
    if (label === 'w/o') return { train: 0.995, test: 0.505, advantage: 0.58, auc: 0.8, validation: 0.5, curve: curveOf(seed) };
    if (label === 'CCQL' || label === 'CCEL') return { train: 0.73, test: ccqlTest, advantage: 0.35, auc: 0.7, validation: 0.3 };
    return { train: 0.6, test: 0.45, advantage: 0.3, auc: 0.65, validation: 0.4 };
  };
  const run = (ccqlTest: number) =>
    fakeContext('cpu', (_id, config) => notRunCifar100(config) ?? fakeResults(config, classesOf(config), (l, c) => numbers(l, c, ccqlTest)));

  it('asks for a selection pass per seed and trains each seed’s control with the epoch of its own curve', async () => {
    const { ctx, calls } = run(0.39);
    const out = await table1.run(ctx);
    const cifar = calls.filter((c) => c.config.dataset.name === 'cifar10');
    expect(cifar.map((c) => c.id)).toEqual([
      'cifar10-selection',
      'cifar10',
      'cifar10-selection-seed-1',
      'cifar10-seed-1',
      'cifar10-selection-seed-2',
      'cifar10-seed-2',
    ]);
    const expected = [0, 1, 2].map((s) => {
      const curve = curveOf(s);
      let best = 0;
      for (let e = 1; e < curve.length - 1; e++) if (Math.abs(curve[e]! - 0.3) < Math.abs(curve[best]! - 0.3)) best = e;
      return best + 1;
    });
    // Known answer: (s + 1)/100 + e/30 closest to 0.3 — e = 9 for s = 0 (0.31), e = 8 for s = 1 and 2 (0.287, 0.297).
    expect(expected).toEqual([9, 8, 8]);
    for (const [j, id] of ['cifar10', 'cifar10-seed-1', 'cifar10-seed-2'].entries()) {
      const config = cifar.find((c) => c.id === id)!.config;
      expect(config.trainingSeed ?? config.seed).toBe(j);
      expect(config.defenses.find((d) => d.label === EARLY_STOP_CONTROL)!.params).toEqual({ epochs: expected[j] });
    }
    // Each selection pass trains the seed's undefended and CCQL targets alone, with that seed.
    for (const [j, id] of ['cifar10-selection', 'cifar10-selection-seed-1', 'cifar10-selection-seed-2'].entries()) {
      const config = cifar.find((c) => c.id === id)!.config;
      expect([config.defenses.map((d) => d.label), config.attacks, config.trainingSeed ?? config.seed]).toEqual([['w/o', 'CCQL'], [], j]);
    }
    expect(out.notes!.join('\n')).toMatch(/CIFAR-10: training seed 0: epoch 9 \(w\/o validation 31\.0 % vs CCQL's 30\.0 %\), training seed 1: epoch 8/);
  });

  it('makes the CIFAR-10 column not testable when CCQL/CCEL stay far from converged (39 % test vs the undefended 50.5 %), and decides it when they are not', async () => {
    expect(CCL_MAX_TEST_DROP).toBe(0.05);
    const far = await table1.run(run(0.39).ctx);
    for (const claim of far.claims) {
      const c10 = claim.columns!.find((c) => c.column === 'CIFAR-10')!;
      expect(c10.verdict).toBe('not testable');
      expect(c10.evidence).toMatch(/(CCQL|CCEL) far from converged \(test accuracy 39\.0 % vs undefended 50\.5 %: 11\.5 points below/);
    }
    // 2 points below the undefended model: converged by our criterion, so the column is decided.
    const near = await table1.run(run(0.485).ctx);
    for (const claim of near.claims) expect(claim.columns!.find((c) => c.column === 'CIFAR-10')!.verdict).not.toBe('not testable');
  });
});

describe('ccl-fig2 and ccl-fig4 use the same undefended model, so they gate it the same way', () => {
  // The α sweep's undefended model (cross-entropy) with a loss AUC of `auc`; every other setting far from saturated.
  const context = (auc: number) =>
    fakeContext('smoke', (_id, config) =>
      fakeResults(config, 100, (label) =>
        label === CE_LABEL ? { train: 1, test: 0.5, advantage: 0.6, auc } : { train: 0.9, test: 0.45, advantage: 0.4, auc: 0.7 },
      ),
    );

  it('a saturated model makes every privacy claim of both figures not testable, with the same reason', async () => {
    const [a, b] = [await fig4.run(context(0.995).ctx), await fig2.run(context(0.995).ctx)];
    const reason = 'saturated (undefended correctness AUC 0.995 ≥ 0.99: no defense effect can show)';
    const privacy4 = a.claims.slice(0, 4);
    for (const c of [...privacy4, ...b.claims]) expect(c.evidence).toBe(`not testable at this scale: ${reason}`);
    // Fig. 4's utility claim does not read the attacks.
    expect(a.claims[4]!.evidence).not.toMatch(/saturated/);
  });

  it('below saturation neither figure calls the model saturated', async () => {
    const [a, b] = [await fig4.run(context(0.95).ctx), await fig2.run(context(0.95).ctx)];
    for (const c of [...a.claims, ...b.claims]) expect(c.evidence).not.toMatch(/saturated/);
  });
});
