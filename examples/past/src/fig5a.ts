import { type DefenseRow, type ExperimentConfig } from '@mia/experiments';
import {
  averageAdvantageMetric,
  byScale,
  compareEstimates,
  decidedClaim,
  isNotRun,
  notEvaluated,
  notTestable,
  rowMetrics,
  rowOf,
  testabilityProblem,
  type Claim,
  type RowMetric,
  type Reproduction,
  type ReproductionFigure,
  type ReproductionScale,
  type RunOutcome,
  type ValidationView,
  validationView,
} from '@mia/experiments/reproduce';
import { CPU_PLAN } from './cpu-plan';
import { DATASET_CLASSES, ablationSetup, describeSetup, pastDefense, pastExperiment, type DatasetSetup } from './configs';
import { averageAdvantage, gridRows, pct, rowMetricTable } from './helpers';
import { PAST_REGIME } from './table1';
import { strongestOnValidation } from './strongest-on-validation';

/** The four tuning-phase penalties of Fig. 5a (docs/protocol.md §4.1 "Paper appendix baselines"). */
export const VARIANTS: Readonly<Record<string, { norm: 'l1' | 'l2'; adaptive: boolean }>> = {
  'L1+Ours': { norm: 'l1', adaptive: true },
  L1: { norm: 'l1', adaptive: false },
  L2: { norm: 'l2', adaptive: false },
  'L2+Ours': { norm: 'l2', adaptive: true },
};

/** The λ sweep of every variant (the paper gives none; docs/protocol.md §4.12 recommends this grid). */
export function fig5aLambdas(scale: ReproductionScale): number[] {
  return byScale(scale, { paper: [1e-5, 3e-5, 1e-4, 3e-4, 1e-3, 3e-3], cpu: [1e-5, 3e-5, 1e-4, 3e-4, 1e-3, 3e-3], smoke: [1e-3] });
}

/** Fig. 5a's experiment: the undefended base and each variant at every λ of the sweep. */
export function fig5aConfig(setup: DatasetSetup, scale: ReproductionScale): ExperimentConfig {
  const grid = { lambda: fig5aLambdas(scale) };
  return pastExperiment('past-fig5a', setup, [
    { name: 'none', label: 'Base' },
    ...Object.entries(VARIANTS).map(([label, v]) => pastDefense(setup, label, v, grid)),
  ]);
}

function figure(run: RunOutcome): ReproductionFigure {
  const values = isNotRun(run)
    ? []
    : run.rows.map((r) => ({ variant: r.label.split(' ')[0], setting: r.label, testAccuracy: r.testAccuracy, averageAdvantage: averageAdvantage(r) }));
  return {
    id: 'past-fig5a',
    title: 'Fig. 5a: L1 / L2 with fixed or adaptive (PAST) weights in the tuning phase',
    spec: {
      $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
      data: { values },
      width: 360,
      height: 240,
      mark: { type: 'point', filled: true, size: 70 },
      encoding: {
        x: { field: 'testAccuracy', type: 'quantitative', title: 'test accuracy', scale: { zero: false } },
        y: { field: 'averageAdvantage', type: 'quantitative', title: 'average attack advantage' },
        color: { field: 'variant', type: 'nominal' },
        shape: { field: 'variant', type: 'nominal' },
        tooltip: [{ field: 'setting' }],
      },
    },
  };
}

/** The accuracy tolerance of Fig. 5a's selection: a variant's setting counts when its validation accuracy is ≥ the base's − this. */
export const FIG5A_TOLERANCE = 0.02;

/** A setting's λ: its `lambda` param, else the `lambda=` of its label. */
const lambdaOf = (v: ValidationView): number => {
  const p = v.params['lambda'];
  if (typeof p === 'number') return p;
  const m = /lambda=([0-9.eE+-]+)/.exec(v.label);
  return m === null ? Number.NaN : Number(m[1]);
};

/**
 * The setting of a variant chosen on the validation slice only (never on the evaluation data): the
 * largest λ (strongest penalty) whose validation accuracy is ≥ the base's − {@link FIG5A_TOLERANCE}
 * — Table 1's rule of the largest λ that keeps validation accuracy (`strongest-within`,
 * docs/protocol.md §5.3), with the untuned base as the reference (Fig. 5a has no λ = 0 control).
 * Reads {@link ValidationView}s, so the evaluation data cannot take part. Undefined when no setting qualifies.
 */
export function chooseOnValidation(views: readonly ValidationView[], baseValidation: number): ValidationView | undefined {
  return strongestOnValidation(views, { reference: baseValidation, tolerance: FIG5A_TOLERANCE, strength: lambdaOf })?.view;
}

/**
 * "variant A gives a lower `metric` than variant B at similar accuracy": each variant's setting is
 * chosen on the validation slice ({@link chooseOnValidation}), then the two are compared on the
 * evaluation data with a 2-SE margin. Not testable when the run records no validation accuracy (a
 * choice would have to look at the evaluation data) or the base is out of PAST's regime; not
 * evaluated when a variant has no qualifying setting.
 */
function compare(run: RunOutcome, a: string, b: string, metric: RowMetric): Claim {
  const statement = `${a} gives a lower ${metric.name} than ${b} at similar accuracy (each at its largest λ with validation accuracy ≥ the base's − ${100 * FIG5A_TOLERANCE} points, chosen on the validation slice)`;
  if (isNotRun(run)) return notEvaluated(statement, run.notRun);
  const base = rowOf(run, 'Base');
  if (base === undefined) return notEvaluated(statement, 'no base row');
  const gate = testabilityProblem({ results: run, undefended: 'Base', compared: ['Base'], regime: PAST_REGIME });
  if (gate !== undefined) return notTestable(statement, gate);
  if (base.validationAccuracy === undefined)
    return notTestable(statement, 'the run records no validation accuracy, so a setting could only be chosen on the evaluation data');
  const chosen = (variant: string) => {
    const view = chooseOnValidation(gridRows(run, variant).map(validationView), base.validationAccuracy!);
    return view === undefined ? undefined : rowOf(run, view.label);
  };
  const ra = chosen(a);
  const rb = chosen(b);
  const floor = `validation floor ${pct(base.validationAccuracy - FIG5A_TOLERANCE)} (base ${pct(base.validationAccuracy)})`;
  const show = (r: DefenseRow | undefined) => (r === undefined ? 'no setting' : `${r.label}, validation ${pct(r.validationAccuracy!)}`);
  if (ra === undefined || rb === undefined) return notEvaluated(statement, `${floor}; ${a}: ${show(ra)}; ${b}: ${show(rb)}`);
  const d = compareEstimates(metric.estimate(ra, run), metric.estimate(rb, run), { direction: 'less', format: 'pct', labels: [ra.label, rb.label] });
  return decidedClaim(statement, { ...d, evidence: `${floor}; chosen ${show(ra)} and ${show(rb)}: ${d.evidence}` });
}

/**
 * PAST Fig. 5a: the ablation of the tuning-phase penalty, ℓ1 or ℓ2, with fixed (γ ≡ 1) or PAST's
 * adaptive weights, each swept over λ.
 * @see docs/protocol.md §4.1 ("L1" / "L2" / "L2+Ours"), §4.12
 */
export const fig5a: Reproduction = {
  name: 'past-fig5a',
  regimes: [{ column: CPU_PLAN.ablation.dataset.name, regime: PAST_REGIME, classes: DATASET_CLASSES[CPU_PLAN.ablation.key] }],
  paper: 'PAST (Hu, Zhang & Wei)',
  title: 'Fig. 5a: ablation of ℓ1 / ℓ2 with fixed or adaptive weights',
  source: 'PAST (arXiv:2410.06814), Figure 5a (§4.2 "What\'s the difference between PAST and ℓ1/ℓ2 regularization?") and App. A',
  description: 'Tuning phase with L1+Ours (PAST), L1, L2 and L2+Ours, each over a λ sweep; average and highest advantage against test accuracy.',
  async run(ctx) {
    const setup = ablationSetup('cifar100', ctx.scale);
    const run = await ctx.run('fig5a', fig5aConfig(setup, ctx.scale));
    const rows: Record<string, string> = { Base: 'Base' };
    for (const v of Object.keys(VARIANTS)) for (const l of fig5aLambdas(ctx.scale)) rows[`${v} lambda=${l}`] = `${v} lambda=${l}`;
    const table = rowMetricTable({
      title: 'Fig. 5a: test accuracy and advantages per setting',
      run,
      rows,
      format: 'pct',
      columns: {
        'test accuracy': (r) => r.testAccuracy,
        'average advantage': averageAdvantage,
        'highest advantage': (r) => r.maxAdvantage,
        ...(setup.validation === undefined ? {} : { 'validation accuracy': (r: DefenseRow) => r.validationAccuracy ?? Number.NaN }),
      },
      caption: `Each tuning variant at each λ (%); the paper plots average advantage against test accuracy.${setup.validation === undefined ? '' : " Validation accuracy: the slice (cut from target_inference, never attacked) on which the ablations' λ is chosen (docs/protocol.md A11)."}`,
    });
    return {
      tables: [table],
      figures: [figure(run)],
      claims: [
        compare(run, 'L1+Ours', 'L1', averageAdvantageMetric()),
        compare(run, 'L1+Ours', 'L1', { ...rowMetrics.maxAdvantage, name: 'highest advantage' }),
        compare(run, 'L1+Ours', 'L2', averageAdvantageMetric()),
        compare(run, 'L2+Ours', 'L2', averageAdvantageMetric()),
      ],
      notes: [
        describeSetup(setup, ctx.scale),
        ...(ctx.scale === 'paper'
          ? []
          : ['The paper runs Fig. 5a on CIFAR-100 / DenseNet-121; at this scale it runs on the purchaseLike stand-in with the Purchase MLP.']),
        `Every variant sweeps λ over ${fig5aLambdas(ctx.scale).join(', ')} with α = ${setup.past.alpha} for the adaptive ones (the paper gives no grid; docs/protocol.md §4.12).`,
      ],
    };
  },
};
