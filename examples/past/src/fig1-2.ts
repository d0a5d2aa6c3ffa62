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
  compareEstimates,
  compareRows,
  decidedClaim,
  isNotRun,
  notEvaluated,
  notTestable,
  rowMetrics,
  testabilityProblem,
  trendClaim,
  type Claim,
  type Estimate,
  type Reproduction,
  type ReproductionContext,
  type ReproductionFigure,
  type ReproductionTable,
} from '@mia/experiments/reproduce';
import { datasetSetup, describeSetup, type DatasetSetup } from './configs';
import { PAST_REGIME, TUNING_CONTROL, table1Config } from './table1';

/** Every claim "not testable" (with the reason) when the undefended model is out of regime. */
const gateAll = (problem: string | undefined, claims: Claim[]): Claim[] =>
  problem === undefined ? claims : claims.map((c) => notTestable(c.statement, problem));

/**
 * What Fig. 1b and 2 rest on, measured on the cached CIFAR-10 targets of Table 1: the undefended
 * model (`before`), PAST (`after`) and the matched λ = 0 tuning control (`control`: the same phase-1
 * model tuned with the same epochs and LR, no penalty); plus a PAST tuning of a copy of the
 * undefended model that records Gini and loss gap per epoch (the curve of Fig. 2b–c).
 */
interface Analysis {
  readonly before: SensitivitySummary;
  readonly after: SensitivitySummary;
  readonly control: SensitivitySummary;
  readonly curve: ReadonlyArray<{ epoch: number; giniShifted: number; giniAbs: number; lossGap: number }>;
  readonly weights: { before: Float32Array; after: Float32Array; control: Float32Array };
  readonly sensitivity: { before: Float32Array; after: Float32Array; control: Float32Array };
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

/**
 * Loads the undefended, PAST and λ = 0 control targets of Table 1's CIFAR-10 run and measures them;
 * tunes a copy of the undefended target with PAST, recording Gini and loss gap per epoch.
 */
async function analyse(ctx: ReproductionContext, setup: DatasetSetup): Promise<Analysis> {
  const config = table1Config(setup);
  const base = await ctx.loadModel(config, 'w/o');
  const tuned = await ctx.loadModel(config, 'w/o');
  const past = await ctx.loadModel(config, 'PAST');
  const control = await ctx.loadModel(config, TUNING_CONTROL);
  try {
    const { dataset } = base.data;
    const members = subsetData(dataset, base.members);
    const nonMembers = subsetData(dataset, base.nonMembers);
    const inference = subsetData(dataset, base.inference!);
    const s0 = computeSensitivity(base.model, members, nonMembers);
    const s1 = computeSensitivity(past.model, members, nonMembers);
    const sc = computeSensitivity(control.model, members, nonMembers);
    const gini = giniRecorder();
    const gaps = lossGapRecorder({ members, nonMembers });
    await pastTune(tuned.model, {
      members,
      nonMembers: inference,
      lambda: setup.past.lambda,
      alpha: setup.past.alpha,
      epochs: setup.past.tuneEpochs,
      batchSize: setup.training.batchSize,
      seed: 1,
      plugins: [gini, gaps],
      progressBar: false,
      label: 'fig2 PAST tuning',
    });
    const flat = (x: typeof s0) => concat(x.groups.map((g) => g.gradientGap));
    return {
      before: summarizeSensitivity(s0),
      after: summarizeSensitivity(s1),
      control: summarizeSensitivity(sc),
      curve: gini.records.map((g, i) => ({ epoch: g.epochsDone, giniShifted: g.giniShifted, giniAbs: g.giniAbs, lossGap: gaps.records[i]!.lossGap })),
      weights: { before: parameterValues(base.model), after: parameterValues(past.model), control: parameterValues(control.model) },
      sensitivity: { before: flat(s0), after: flat(s1), control: flat(sc) },
    };
  } finally {
    for (const u of [base, tuned, past, control]) u.model.dispose();
  }
}

const lastDense = (s: SensitivitySummary) => [...s.modules].reverse().find((m) => m.kind === 'dense')!;

/**
 * A share over n parameters with its binomial SE sqrt(p(1−p)/n). These claims are about the
 * parameters of one undefended model and its PAST-tuned copy; the SE states how finely the share is
 * resolved by the parameter count, not the spread over training seeds (one seed here).
 */
const shareEstimate = (p: number, n: number): Estimate => ({ value: p, se: Math.sqrt(Math.max(p * (1 - p), 1 / n) / n), seSource: 'parameters' });

/** The mean of the last dense layer's sensitivities, in units of 10⁻³, with its SE (sample std / √n over that layer's parameters). */
function lastDenseEstimate(s: SensitivitySummary, values: Float32Array): Estimate {
  const index = s.modules.length - 1 - [...s.modules].reverse().findIndex((m) => m.kind === 'dense');
  const offset = s.modules.slice(0, index).reduce((n, m) => n + m.count, 0);
  const layer = values.subarray(offset, offset + s.modules[index]!.count);
  const mean = layer.reduce((t, v) => t + v, 0) / layer.length;
  const variance = layer.reduce((t, v) => t + (v - mean) ** 2, 0) / Math.max(1, layer.length - 1);
  return { value: 1000 * mean, se: 1000 * Math.sqrt(variance / layer.length), seSource: 'parameters' };
}

/** A claim decided by {@link compareEstimates} (2-SE margin, docs/protocol.md §5.1). */
const marginClaim = (statement: string, a: Estimate, b: Estimate, direction: 'greater' | 'less', format: 'num' | 'pct', labels: [string, string]): Claim =>
  decidedClaim(statement, compareEstimates(a, b, { direction, format, labels }));
const nearZero = (w: Float32Array) => w.reduce((n, v) => n + (Math.abs(v) < 0.01 ? 1 : 0), 0) / w.length;
const meanAbs = (w: Float32Array) => w.reduce((s, v) => s + Math.abs(v), 0) / w.length;

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

/** The claims of Fig. 1b / 2 / 13a (PAST §3.1–3.2, App. F.1). */
const STATEMENTS = {
  top20:
    'Fig. 1b: only a small fraction of parameters carries the privacy sensitivity — the top 20 % of parameters hold ≥ 80 % of the cumulative sensitivity (our criterion: a Pareto-style bound; the paper reports 89.27 % on ResNet-18)',
  gini: 'Fig. 2b: the (shifted) Gini index keeps decreasing during PAST tuning',
  lossGap: `Fig. 2c: PAST tuning reduces the loss gap — loss gap(PAST) < loss gap(${TUNING_CONTROL}), the same tuning without the penalty`,
  nearZero: `Fig. 2a: after PAST more weights lie near 0 than after the same tuning without the penalty (share |w| < 0.01, PAST vs ${TUNING_CONTROL})`,
  fc: `Fig. 13a: PAST lowers the mean sensitivity of the last dense layer (×10⁻³; paper 22.3 → 8.8), against ${TUNING_CONTROL}`,
} as const;

const NOT_RUN_TABLES = [
  'Fig. 1b: privacy sensitivity |∂G/∂θ|',
  'Fig. 2a: weights before and after PAST',
  'Fig. 2b–c: Gini index and loss gap over PAST tuning',
];

/**
 * PAST Fig. 1b and Fig. 2 (with App. F Fig. 13a): the privacy-sensitivity distribution of an
 * undefended CIFAR-10 target, its weights and Gini index before and after PAST tuning, and the loss
 * gap over tuning — measured with the analysis tools of `@mia/defense-past`.
 * @see docs/protocol.md §5 ("Privacy sensitivity distribution", "Gini index", "Loss gap"), §7 A33
 */
export const fig12: Reproduction = {
  name: 'past-fig1-2',
  paper: 'PAST (Hu, Zhang & Wei)',
  title: 'Fig. 1b and 2: sensitivity distribution, weights, Gini and loss gap under PAST tuning',
  source: 'PAST (arXiv:2410.06814), Figure 1b, Figure 2a–c (§3.1–3.2); PAST with appendices (ICLR 2025 submission), Figure 13a (App. F.1)',
  description:
    "The undefended, PAST and λ = 0 control CIFAR-10 targets of Table 1 are loaded from the cache and analysed; a copy of the undefended one is tuned with PAST, recording Gini and loss gap per epoch (Fig. 2b–c's curves).",
  async run(ctx) {
    const setup = datasetSetup('cifar10', ctx.scale) as DatasetSetup;
    const run = await ctx.run('cifar10', table1Config(setup));
    const notes = [
      describeSetup(setup, ctx.scale),
      "Sensitivity: |∂G/∂θ| over conv/dense/BN weights with S_m = the target's members and S_n = its test set (docs/protocol.md §5); the paper uses 10 000 of each. The curve's tuning starts from the cached undefended target with Table 1's PAST hyperparameters (seed 1).",
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
    const a = await analyse(ctx, setup);
    const [first, last] = [a.curve[0]!, a.curve.at(-1)!];
    const cols = ['undefended', 'after PAST', `${TUNING_CONTROL}`];
    const sens: ReproductionTable = {
      title: NOT_RUN_TABLES[0]!,
      columns: cols,
      format: 'num',
      caption:
        "Per-parameter |∂G/∂θ| of Table 1's cached CIFAR-10 targets: the share below 0.1, the share of the total held by the top 20 %, the mean (×1000) overall and in the last dense layer (App. F Fig. 13a: FC layer of ResNet-18). The 0.1 threshold is on the paper's loss scale: shown for reference, not a claim.",
      rows: [
        // PAST (arXiv:2410.06814) §3.1: "97 % of the parameters have privacy sensitivities lower than 0.1", "top 20 % … 89.27 %".
        {
          label: 'share of parameters with sensitivity < 0.1',
          cells: [{ ours: a.before.overall.shareBelow, paper: 0.97 }, { ours: a.after.overall.shareBelow }, { ours: a.control.overall.shareBelow }],
        },
        {
          label: 'share of the total held by the top 20 %',
          cells: [{ ours: a.before.overall.topShare, paper: 0.8927 }, { ours: a.after.overall.topShare }, { ours: a.control.overall.topShare }],
        },
        {
          label: 'mean sensitivity (×1000)',
          cells: [{ ours: 1000 * a.before.overall.mean }, { ours: 1000 * a.after.overall.mean }, { ours: 1000 * a.control.overall.mean }],
        },
        // PAST with appendices (ICLR 2025 submission) App. F.1: FC-layer mean "reduced from 0.0223 to 0.0088".
        {
          label: 'mean sensitivity, last dense layer (×1000)',
          cells: [
            { ours: 1000 * lastDense(a.before).mean, paper: 22.3 },
            { ours: 1000 * lastDense(a.after).mean, paper: 8.8 },
            { ours: 1000 * lastDense(a.control).mean },
          ],
        },
      ],
    };
    const weights: ReproductionTable = {
      title: NOT_RUN_TABLES[1]!,
      columns: ['share |w| < 0.01', 'mean |w|', 'Gini (shifted, PAST)'],
      format: 'num',
      caption: 'Every trainable parameter (docs/protocol.md §5 "Gini index"); PAST\'s shifted Gini decreases as weights gather at 0.',
      rows: [
        {
          label: 'Base (undefended)',
          cells: [{ ours: nearZero(a.weights.before) }, { ours: meanAbs(a.weights.before) }, { ours: giniShifted(a.weights.before) }],
        },
        {
          label: 'Ours (after PAST)',
          cells: [{ ours: nearZero(a.weights.after) }, { ours: meanAbs(a.weights.after) }, { ours: giniShifted(a.weights.after) }],
        },
        {
          label: TUNING_CONTROL,
          cells: [{ ours: nearZero(a.weights.control) }, { ours: meanAbs(a.weights.control) }, { ours: giniShifted(a.weights.control) }],
        },
      ],
    };
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
          { undefended: a.sensitivity.before, 'after PAST': a.sensitivity.after, [TUNING_CONTROL]: a.sensitivity.control },
          true,
        ),
        histogramFigure(
          'past-fig2a',
          'Fig. 2a: weight distribution before (Base) and after PAST (Ours)',
          'weight',
          { Base: a.weights.before, Ours: a.weights.after, [TUNING_CONTROL]: a.weights.control },
          true,
        ),
        curveFigure('past-fig2b', "Fig. 2b: Gini index (PAST's shifted form) during tuning", a.curve, 'giniShifted'),
        curveFigure('past-fig2c', 'Fig. 2c: loss gap during tuning', a.curve, 'lossGap'),
      ],
      // Gated on the undefended model's regime. The Gini curve is consecutive epochs of one tuning run:
      // not independent points, so no trend test applies. The loss gap is compared between the PAST
      // model and the matched λ = 0 control on the evaluation examples (bootstrap SE); the weights and
      // the FC sensitivity compare PAST with that control too (SE over the parameters of one model).
      claims: gateAll(testabilityProblem({ results: run, undefended: 'w/o', compared: ['w/o', 'PAST', TUNING_CONTROL], regime: PAST_REGIME }), [
        marginClaim(STATEMENTS.top20, shareEstimate(a.before.overall.topShare, a.before.overall.count), { value: 0.8, se: 0 }, 'greater', 'pct', [
          'top 20 % share',
          'bound',
        ]),
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
        }),
        marginClaim(
          STATEMENTS.nearZero,
          shareEstimate(nearZero(a.weights.after), a.weights.after.length),
          shareEstimate(nearZero(a.weights.control), a.weights.control.length),
          'greater',
          'pct',
          ['PAST', TUNING_CONTROL],
        ),
        marginClaim(STATEMENTS.fc, lastDenseEstimate(a.after, a.sensitivity.after), lastDenseEstimate(a.control, a.sensitivity.control), 'less', 'num', [
          'PAST',
          TUNING_CONTROL,
        ]),
      ]),
      notes,
    };
  },
};
