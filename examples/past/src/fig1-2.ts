import { subsetData } from '@mia/core';
import { giniShifted } from '@mia/metrics';
import {
  computeSensitivity,
  giniRecorder,
  lossGapRecorder,
  parameterValues,
  pastTune,
  sharedHistograms,
  summarizeSensitivity,
  type SensitivitySummary,
} from '@mia/defense-past';
import {
  compareRows,
  isNotRun,
  notEvaluated,
  notTestable,
  pairedColumnSe,
  plannedSeedRuns,
  rowMetrics,
  seedRuns,
  testabilityProblem,
  trendClaim,
  type Claim,
  type LoadedUnit,
  type Reproduction,
  type ReproductionContext,
  type ReproductionFigure,
  type ReproductionTable,
  type SeedRun,
  type MeasuredCell,
  type TableCell,
} from '@mia/experiments/reproduce';
import { DATASET_CLASSES, datasetSetup, describeSetup, type DatasetSetup } from './configs';
import { FIG12_STATEMENTS, fig12SeedClaims, type ModelNumbers, type SeedNumbers } from './fig1-2-claims';
import { PAST_REGIME, TUNING_CONTROL, table1Config } from './table1';

/** Every claim "not testable" (with the reason) when the undefended model is out of regime. */
const gateAll = (problem: string | undefined, claims: Claim[]): Claim[] =>
  problem === undefined ? claims : claims.map((c) => notTestable(c.statement, problem));

/** What one model of Fig. 1b / 2 measures: the numbers the claims use and those the tables show. */
interface Measured extends ModelNumbers {
  readonly shareBelow: number;
  /** Mean sensitivity ×1000. */
  readonly mean: number;
  readonly meanAbs: number;
  readonly gini: number;
}

/** One model's weights and flat sensitivities (kept for the first seed's figures). */
interface Arrays {
  readonly weights: Float32Array;
  readonly sensitivity: Float32Array;
}

/** One training seed's three models, measured. */
type SeedMeasures = SeedNumbers & { readonly before: Measured; readonly after: Measured; readonly control: Measured };

/**
 * What Fig. 1b and 2 rest on, measured on the cached CIFAR-10 targets of Table 1, per training seed:
 * the undefended model (`before`), PAST (`after`) and the matched λ = 0 tuning control (`control`: the
 * same phase-1 model tuned with the same epochs and LR, no penalty); for the first seed also the
 * arrays behind the figures and a PAST tuning of a copy of the undefended model that records Gini and
 * loss gap per epoch (the curve of Fig. 2b–c).
 */
interface Analysis {
  readonly seeds: readonly SeedMeasures[];
  readonly curve: ReadonlyArray<{ epoch: number; giniShifted: number; giniAbs: number; lossGap: number }>;
  readonly first: { readonly before: Arrays; readonly after: Arrays; readonly control: Arrays };
}

const concat = (arrays: readonly Float32Array[]) => {
  const out = new Float32Array(arrays.reduce((n, a) => n + a.length, 0));
  let o = 0;
  for (const a of arrays) {
    out.set(a, o);
    o += a.length;
  }
  return out;
};

const nearZero = (w: Float32Array) => w.reduce((n, v) => n + (Math.abs(v) < 0.01 ? 1 : 0), 0) / w.length;
const meanAbs = (w: Float32Array) => w.reduce((s, v) => s + Math.abs(v), 0) / w.length;

/** The mean of the last dense layer's sensitivities ×1000 with its sample SE over that layer's parameters. */
function lastDenseMean(s: SensitivitySummary, values: Float32Array): { fc: number; fcSe: number } {
  const index = s.modules.length - 1 - [...s.modules].reverse().findIndex((m) => m.kind === 'dense');
  const offset = s.modules.slice(0, index).reduce((n, m) => n + m.count, 0);
  const layer = values.subarray(offset, offset + s.modules[index]!.count);
  const mean = layer.reduce((t, v) => t + v, 0) / layer.length;
  const variance = layer.reduce((t, v) => t + (v - mean) ** 2, 0) / Math.max(1, layer.length - 1);
  return { fc: 1000 * mean, fcSe: 1000 * Math.sqrt(variance / layer.length) };
}

/** Measures one loaded target on its members and non-members. */
function measure(unit: LoadedUnit): { measured: Measured; arrays: Arrays } {
  const { dataset } = unit.data;
  const result = computeSensitivity(unit.model, subsetData(dataset, unit.members), subsetData(dataset, unit.nonMembers));
  const summary = summarizeSensitivity(result);
  const sensitivity = concat(result.groups.map((g) => g.gradientGap));
  const weights = parameterValues(unit.model);
  return {
    measured: {
      topShare: summary.overall.topShare,
      parameters: summary.overall.count,
      shareBelow: summary.overall.shareBelow,
      mean: 1000 * summary.overall.mean,
      ...lastDenseMean(summary, sensitivity),
      nearZero: nearZero(weights),
      weights: weights.length,
      meanAbs: meanAbs(weights),
      gini: giniShifted(weights),
    },
    arrays: { weights, sensitivity },
  };
}

/**
 * Loads the undefended, PAST and λ = 0 control targets of every training seed of Table 1's CIFAR-10
 * run and measures them (one model at a time); tunes a copy of the first seed's undefended target with
 * PAST, recording Gini and loss gap per epoch.
 */
async function analyse(ctx: ReproductionContext, setup: DatasetSetup, runs: readonly SeedRun[]): Promise<Analysis> {
  const seeds: SeedMeasures[] = [];
  let first: Analysis['first'] | undefined;
  for (const run of runs) {
    const one: Partial<Record<'before' | 'after' | 'control', { measured: Measured; arrays: Arrays }>> = {};
    for (const [key, label] of [
      ['before', 'w/o'],
      ['after', 'PAST'],
      ['control', TUNING_CONTROL],
    ] as const) {
      const unit = await ctx.loadModel(run.config, label);
      try {
        one[key] = measure(unit);
      } finally {
        unit.model.dispose();
      }
    }
    seeds.push({ trainingSeed: run.trainingSeed, before: one.before!.measured, after: one.after!.measured, control: one.control!.measured });
    first ??= { before: one.before!.arrays, after: one.after!.arrays, control: one.control!.arrays };
  }
  const tuned = await ctx.loadModel(runs[0]!.config, 'w/o');
  try {
    const { dataset } = tuned.data;
    const members = subsetData(dataset, tuned.members);
    const nonMembers = subsetData(dataset, tuned.nonMembers);
    const gini = giniRecorder();
    const gaps = lossGapRecorder({ members, nonMembers });
    await pastTune(tuned.model, {
      members,
      nonMembers: subsetData(dataset, tuned.inference!),
      lambda: setup.past.lambda,
      alpha: setup.past.alpha,
      epochs: setup.past.tuneEpochs,
      batchSize: setup.training.batchSize,
      seed: 1,
      plugins: [gini, gaps],
      progressBar: false,
      label: 'fig2 PAST tuning',
    });
    const curve = gini.records.map((g, i) => ({ epoch: g.epochsDone, giniShifted: g.giniShifted, giniAbs: g.giniAbs, lossGap: gaps.records[i]!.lossGap }));
    return { seeds, curve, first: first! };
  } finally {
    tuned.model.dispose();
  }
}

/** A table cell of a number measured on every seed's model: the mean, with each seed's value when there are several. */
function seedCell(a: Analysis, pick: (s: SeedMeasures) => number, paper?: number): TableCell {
  const values = a.seeds.map(pick);
  const cell: MeasuredCell = { ours: values.reduce((t, v) => t + v, 0) / values.length, ...(paper === undefined ? {} : { paper }) };
  return values.length > 1 ? { ...cell, perSeed: values, seeds: a.seeds.map((s) => s.trainingSeed) } : cell;
}

function histogramFigure(id: string, title: string, x: string, series: Record<string, Float32Array>, logY: boolean): ReproductionFigure {
  const names = Object.keys(series);
  const hists = sharedHistograms(
    names.map((n) => series[n]!),
    { bins: 50 },
  );
  const values = hists.flatMap((h, k) =>
    h.counts.map((count, i) => ({ model: names[k], [x]: (h.edges[i]! + h.edges[i + 1]!) / 2, count: logY ? count + 1 : count })),
  );
  return {
    id,
    title,
    spec: {
      $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
      data: { values },
      width: 360,
      height: 220,
      mark: { type: 'line', interpolate: 'step' },
      encoding: {
        x: { field: x, type: 'quantitative' },
        y: { field: 'count', type: 'quantitative', ...(logY ? { scale: { type: 'log' }, title: 'count + 1' } : {}) },
        color: { field: 'model', type: 'nominal' },
      },
    },
  };
}

function curveFigure(id: string, title: string, curve: Analysis['curve'], field: 'giniShifted' | 'lossGap'): ReproductionFigure {
  return {
    id,
    title,
    spec: {
      $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
      data: { values: curve.map((c) => ({ epoch: c.epoch, [field]: c[field] })) },
      width: 360,
      height: 200,
      mark: { type: 'line', point: true },
      encoding: { x: { field: 'epoch', type: 'quantitative', title: 'tuning epoch' }, y: { field, type: 'quantitative', scale: { zero: false } } },
    },
  };
}

const STATEMENTS = FIG12_STATEMENTS;

const NOT_RUN_TABLES = [
  'Fig. 1b: privacy sensitivity |∂G/∂θ|',
  'Fig. 2a: weights before and after PAST',
  'Fig. 2b–c: Gini index and loss gap over PAST tuning',
];

/**
 * PAST Fig. 1b and Fig. 2 (with App. F Fig. 13a): the privacy-sensitivity distribution of the
 * undefended CIFAR-10 targets of Table 1, their weights and Gini index before and after PAST tuning
 * (every training seed's models: a number of one model's parameters is decided over the seeds), and
 * the loss gap over tuning — measured with the analysis tools of `@mia/defense-past`.
 * @see docs/protocol.md §5 ("Privacy sensitivity distribution", "Gini index", "Loss gap"), §7 A33
 */
export const fig12: Reproduction = {
  name: 'past-fig1-2',
  regimes: [{ column: 'CIFAR-10', regime: PAST_REGIME, classes: DATASET_CLASSES.cifar10 }],
  paper: 'PAST (Hu, Zhang & Wei)',
  title: 'Fig. 1b and 2: sensitivity distribution, weights, Gini and loss gap under PAST tuning',
  source: 'PAST (arXiv:2410.06814), Figure 1b, Figure 2a–c (§3.1–3.2); PAST with appendices (ICLR 2025 submission), Figure 13a (App. F.1)',
  description:
    "The undefended, PAST and λ = 0 control CIFAR-10 targets of Table 1 (every training seed) are loaded from the cache and analysed; a copy of the first seed's undefended one is tuned with PAST, recording Gini and loss gap per epoch (Fig. 2b–c's curves).",
  // Its runs (Table 1's CIFAR-10 config, one per training seed), known before any model is loaded (redecide compares their configs first).
  plan: ({ scale }) => {
    const setup = datasetSetup('cifar10', scale) as DatasetSetup;
    return plannedSeedRuns('cifar10', table1Config(setup), setup.seeds ?? 1);
  },
  async run(ctx) {
    const setup = datasetSetup('cifar10', ctx.scale) as DatasetSetup;
    const config = table1Config(setup);
    // Every training seed of Table 1's CIFAR-10 models (the same models, from the cache): a number of one model's parameters gets its SE from them.
    const k = setup.seeds ?? 1;
    const run = await ctx.runSeeds('cifar10', config, k);
    const notes = [
      describeSetup(setup, ctx.scale),
      "Sensitivity: |∂G/∂θ| over conv/dense/BN weights with S_m = the target's members and S_n = its test set (docs/protocol.md §5); the paper uses 10 000 of each. The curve's tuning starts from the first training seed's cached undefended target with Table 1's PAST hyperparameters (seed 1).",
      `PAST is compared with "${TUNING_CONTROL}" (the same phase-1 model and tuning, λ = 0), not with the untuned base, so the differences are the penalty's and not the extra epochs'.`,
      'Not claimed: "97 % of the parameters have sensitivity < 0.1" (PAST §3.1) — 0.1 is an absolute threshold on the paper\'s loss scale; our mean sensitivity is orders of magnitude below it, so the share is ≈ 100 % whatever the distribution and the claim could not fail. The concentration claim (top 20 %) stands for it.',
    ];
    if (isNotRun(run)) {
      const tables: ReproductionTable[] = NOT_RUN_TABLES.map((title) => ({
        title,
        columns: ['undefended'],
        rows: [{ label: 'all', cells: [{ notRun: run.notRun }] }],
        format: 'num',
      }));
      return {
        tables,
        claims: Object.values(STATEMENTS).map((s) => notEvaluated(s, run.notRun)),
        notes,
      };
    }
    const a = await analyse(ctx, setup, seedRuns('cifar10', config, k));
    const cols = ['undefended', 'after PAST', `${TUNING_CONTROL}`];
    const seedsText = k > 1 ? `, the mean over ${k} training seeds (each seed's value in brackets)` : '';
    const sens: ReproductionTable = {
      title: NOT_RUN_TABLES[0]!,
      columns: cols,
      format: 'num',
      caption: `Per-parameter |∂G/∂θ| of Table 1's cached CIFAR-10 targets${seedsText}: the share below 0.1, the share of the total held by the top 20 %, the mean (×1000) overall and in the last dense layer (App. F Fig. 13a: FC layer of ResNet-18). The 0.1 threshold is on the paper's loss scale: shown for reference, not a claim.`,
      rows: [
        // PAST (arXiv:2410.06814) §3.1: "97 % of the parameters have privacy sensitivities lower than 0.1", "top 20 % … 89.27 %".
        {
          label: 'share of parameters with sensitivity < 0.1',
          cells: [seedCell(a, (s) => s.before.shareBelow, 0.97), seedCell(a, (s) => s.after.shareBelow), seedCell(a, (s) => s.control.shareBelow)],
        },
        {
          label: 'share of the total held by the top 20 %',
          cells: [seedCell(a, (s) => s.before.topShare, 0.8927), seedCell(a, (s) => s.after.topShare), seedCell(a, (s) => s.control.topShare)],
        },
        {
          label: 'mean sensitivity (×1000)',
          cells: [seedCell(a, (s) => s.before.mean), seedCell(a, (s) => s.after.mean), seedCell(a, (s) => s.control.mean)],
        },
        // PAST with appendices (ICLR 2025 submission) App. F.1: FC-layer mean "reduced from 0.0223 to 0.0088".
        {
          label: 'mean sensitivity, last dense layer (×1000)',
          cells: [seedCell(a, (s) => s.before.fc, 22.3), seedCell(a, (s) => s.after.fc, 8.8), seedCell(a, (s) => s.control.fc)],
        },
      ],
    };
    const weights: ReproductionTable = {
      title: NOT_RUN_TABLES[1]!,
      columns: ['share |w| < 0.01', 'mean |w|', 'Gini (shifted, PAST)'],
      format: 'num',
      caption: `Every trainable parameter (docs/protocol.md §5 "Gini index")${seedsText}; PAST's shifted Gini decreases as weights gather at 0.`,
      rows: (
        [
          ['Base (undefended)', 'before'],
          ['Ours (after PAST)', 'after'],
          [TUNING_CONTROL, 'control'],
        ] as const
      ).map(([label, key]) => ({
        label,
        cells: [seedCell(a, (s) => s[key].nearZero), seedCell(a, (s) => s[key].meanAbs), seedCell(a, (s) => s[key].gini)],
      })),
    };
    const seedClaims = fig12SeedClaims(a.seeds);
    const lossGapSe = pairedColumnSe({ cifar10: run }, 'PAST', TUNING_CONTROL, 'lossGap')('cifar10');
    const curve: ReproductionTable = {
      title: NOT_RUN_TABLES[2]!,
      columns: ['Gini (shifted, PAST)', 'Gini (|w|)', 'loss gap'],
      format: 'num',
      caption: 'Measured before tuning (epoch 0) and after every tuning epoch; loss gap = |mean member CE − mean test CE| in eval mode.',
      rows: a.curve.map((c) => ({ label: `epoch ${c.epoch}`, cells: [{ ours: c.giniShifted }, { ours: c.giniAbs }, { ours: c.lossGap }] })),
    };
    return {
      tables: [sens, weights, curve],
      figures: [
        histogramFigure(
          'past-fig1b',
          'Fig. 1b: privacy-sensitivity distribution',
          'sensitivity',
          { undefended: a.first.before.sensitivity, 'after PAST': a.first.after.sensitivity, [TUNING_CONTROL]: a.first.control.sensitivity },
          true,
        ),
        histogramFigure(
          'past-fig2a',
          'Fig. 2a: weight distribution before (Base) and after PAST (Ours)',
          'weight',
          { Base: a.first.before.weights, Ours: a.first.after.weights, [TUNING_CONTROL]: a.first.control.weights },
          true,
        ),
        curveFigure('past-fig2b', "Fig. 2b: Gini index (PAST's shifted form) during tuning", a.curve, 'giniShifted'),
        curveFigure('past-fig2c', 'Fig. 2c: loss gap during tuning', a.curve, 'lossGap'),
      ],
      // Gated on the undefended model's regime. The Gini curve is consecutive epochs of one tuning run:
      // not independent points, so no trend test applies. The loss gap is compared between the PAST
      // model and the matched λ = 0 control on the evaluation examples (paired bootstrap, combined over
      // the training seeds); the top-20 % share, the weights and the FC sensitivity are numbers of one
      // model's parameters, decided over the training seeds (fig12SeedClaims), shown only with one seed.
      claims: gateAll(testabilityProblem({ results: run, undefended: 'w/o', compared: ['w/o', 'PAST', TUNING_CONTROL], regime: PAST_REGIME }), [
        seedClaims.top20,
        trendClaim({
          statement: STATEMENTS.gini,
          points: a.curve.map((c) => ({ x: c.epoch, y: c.giniShifted })),
          direction: 'decreasing',
          format: 'num',
          knob: 'epoch',
          dependence: 'consecutive epochs of one run are not independent (Kendall p-values would be invalid)',
        }),
        compareRows({
          statement: STATEMENTS.lossGap,
          run,
          rowA: 'PAST',
          rowB: TUNING_CONTROL,
          metric: rowMetrics.lossGap,
          direction: 'less',
          format: 'num',
          regime: PAST_REGIME,
          undefended: 'w/o',
          ...(lossGapSe === undefined ? {} : { differenceSe: lossGapSe }),
        }),
        seedClaims.nearZero,
        seedClaims.fc,
      ]),
      notes,
    };
  },
};
