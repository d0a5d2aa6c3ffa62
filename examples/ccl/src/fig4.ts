import { type DefenseRow, type ExperimentResults } from '@mia/experiments';
import {
  byScale,
  classesOf,
  collapseProblem,
  combineColumns,
  undecidedColumn,
  compareEstimates,
  isNotRun,
  notEvaluated,
  notTestable,
  rowMetrics,
  testabilityProblem,
  trendClaim as kendallTrend,
  type Claim,
  type ColumnDecision,
  type Reproduction,
  type ReproductionScale,
  type ReproductionTable,
} from '@mia/experiments/reproduce';
import { UNDEFENDED, baseConfig, cclBeta, cclDefense, type CclDataset } from './configs';
import { lineFigure, type SeriesPoint } from './figures';
import { CCL_REGIME } from './table1';
import { settingOf } from './settings-table';

/** The α grid of CCL App. E.1 (smoke: three points). */
export const alphaGrid = (scale: ReproductionScale): readonly number[] =>
  byScale(scale, { smoke: [0.1, 0.5, 0.9], cpu: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9], paper: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9] });

/** Fig. 4's dataset: CIFAR-10 in the paper; the Purchase stand-in at reduced scales (small-cnn is too slow for 19 settings × 2 models here). */
export const fig4Dataset = (scale: ReproductionScale): CclDataset => (scale === 'paper' ? 'cifar10' : 'purchase');

/** The CE row's label (α = 1 makes CCL plain cross-entropy). */
export const CE_LABEL = 'CE (α=1)';

/** Undefended plus CCQL and CCEL over the α grid; shared with Fig. 2 (same models, one training). */
export function alphaSweepDefenses(dataset: CclDataset, scale: ReproductionScale) {
  const beta = cclBeta(dataset, scale);
  return [UNDEFENDED(CE_LABEL), ...(['CCQL', 'CCEL'] as const).flatMap((kind) => alphaGrid(scale).map((a) => cclDefense(kind, a, beta)))];
}

/**
 * Why a claim on the α sweep's run cannot be tested, decided on its undefended model (cross-entropy,
 * α = 1) by the framework's `testabilityProblem` (regime and, for privacy claims, saturation from
 * every attack on it): Fig. 2 and Fig. 4 use the same model, so they share this one gate
 * (docs/protocol.md §5.1, "one model, one gate").
 */
export function alphaSweepGate(run: ExperimentResults, kind: 'privacy' | 'utility' = 'privacy'): string | undefined {
  return testabilityProblem({ results: run, undefended: CE_LABEL, compared: [CE_LABEL], regime: CCL_REGIME, kind });
}

/** A trend over the α grid (Kendall τ over the non-collapsed settings, docs/protocol.md §5.1), gated on the CE model's regime. */
function trendClaim(
  statement: string,
  rows: ReadonlyArray<readonly [number, DefenseRow | undefined]>,
  metric: (r: DefenseRow) => number,
  direction: 'increasing' | 'decreasing',
  format: 'pct' | 'num',
  gate: string | undefined,
  collapsed: (r: DefenseRow) => string | undefined,
): Claim {
  const points = rows.flatMap(([x, r]) => {
    if (r === undefined) return [];
    const why = collapsed(r);
    return [{ x, y: metric(r), ...(why === undefined ? {} : { collapsed: why }) }];
  });
  return kendallTrend({ statement, points, direction, format, knob: 'α', ...(gate === undefined ? {} : { gate }) });
}

/**
 * CCL Fig. 4: the effect of α on utility (test accuracy), privacy (highest attack advantage) and the
 * members' loss variance, for CCQL and CCEL, with plain cross-entropy (α = 1) as the reference row.
 * @see CCL (arXiv:2402.05453) Fig. 4, §5.2 "How does α affect utility and privacy?"
 */
export const fig4: Reproduction = {
  name: 'ccl-fig4',
  regimes: [{ column: 'Purchase (stand-in; CIFAR-10 in the paper)', regime: CCL_REGIME, classes: 100 }],
  paper: 'CCL (Liu et al., ICML 2024)',
  title: 'CCL Fig. 4: effect of α on test accuracy, highest attack advantage and loss variance',
  source: 'CCL (arXiv:2402.05453), Figure 4',
  async run(ctx) {
    const dataset = fig4Dataset(ctx.scale);
    const config = baseConfig(
      `ccl-alpha-${dataset}-${ctx.scale}`,
      dataset,
      ctx.scale,
      alphaSweepDefenses(dataset, ctx.scale),
      ctx.dataDir === undefined ? {} : { dataDir: ctx.dataDir },
    );
    const outcome = await ctx.run(`alpha-${dataset}`, config);
    const alphas = alphaGrid(ctx.scale);
    const get = (kind: string, a: number) => settingOf(outcome, a === 1 ? CE_LABEL : `${kind} α=${a}`);
    // Rows are the α values plus cross-entropy (α = 1); the columns read the CCQL or CCEL setting of that α.
    const rowAlphas = [...alphas, 1];
    const table = (title: string, metric: (r: DefenseRow) => number, format: 'pct' | 'num', caption: string): ReproductionTable => ({
      title,
      columns: ['CCQL', 'CCEL'],
      format,
      caption,
      rows: rowAlphas.map((a) => ({
        label: a === 1 ? CE_LABEL : `α=${a}`,
        cells: (['CCQL', 'CCEL'] as const).map((kind) => {
          const s = get(kind, a);
          return isNotRun(s) ? { notRun: s.notRun } : { ours: metric(s) };
        }),
      })),
    });
    const accuracy = table('Fig. 4a: test accuracy vs α', (r) => r.testAccuracy, 'pct', 'Higher is better. The last row is cross-entropy (α = 1).');
    const advantage = table('Fig. 4b: highest attack advantage vs α', (r) => r.maxAdvantage, 'pct', 'Lower is better.');
    const variance = table(
      'Fig. 4c: loss variance of the members vs α',
      (r) => r.lossVariance,
      'num',
      'Population variance of the per-example cross-entropy on target_train.',
    );
    const series = (kind: 'CCQL' | 'CCEL', metric: (r: DefenseRow) => number) =>
      alphas.map((a) => {
        const s = get(kind, a);
        return isNotRun(s) ? undefined : metric(s);
      });
    const points: SeriesPoint[] = [];
    for (const kind of ['CCQL', 'CCEL'] as const) {
      for (const [panel, metric] of [
        ['test accuracy', (r: DefenseRow) => r.testAccuracy],
        ['highest advantage', (r: DefenseRow) => r.maxAdvantage],
        ['loss variance', (r: DefenseRow) => r.lossVariance],
      ] as const) {
        series(kind, metric).forEach((y, i) => {
          if (y !== undefined) points.push({ series: kind, panel, x: alphas[i]!, y });
        });
      }
    }
    const smallest = alphas[0]!;
    const largest = alphas[alphas.length - 1]!;
    const run = isNotRun(outcome) ? undefined : outcome;
    const gate = run === undefined ? undefined : alphaSweepGate(run);
    const collapsed = (r: DefenseRow) => (run === undefined ? undefined : collapseProblem(r, run, classesOf(run), CCL_REGIME));
    const rowsOf = (kind: 'CCQL' | 'CCEL') =>
      alphas.map((a) => {
        const s = get(kind, a);
        return [a, isNotRun(s) ? undefined : s] as const;
      });
    const trend = (
      statement: string,
      kind: 'CCQL' | 'CCEL',
      metric: (r: DefenseRow) => number,
      direction: 'increasing' | 'decreasing',
      format: 'pct' | 'num',
    ): Claim =>
      run === undefined
        ? notEvaluated(statement, (outcome as { notRun: string }).notRun)
        : trendClaim(statement, rowsOf(kind), metric, direction, format, gate, collapsed);
    const underfitStatement = `a small α underfits: test accuracy at α=${smallest} < at α=${largest}, for CCQL and CCEL`;
    const underfit = (): Claim => {
      if (run === undefined) return notEvaluated(underfitStatement, (outcome as { notRun: string }).notRun);
      // A utility claim: saturated attacks do not make it untestable.
      const utilityGate = alphaSweepGate(run, 'utility');
      if (utilityGate !== undefined) return notTestable(underfitStatement, utilityGate);
      return combineColumns(
        underfitStatement,
        (['CCQL', 'CCEL'] as const).map((kind): ColumnDecision => {
          const lo = get(kind, smallest);
          const hi = get(kind, largest);
          if (isNotRun(lo) || isNotRun(hi)) return undecidedColumn(kind, 'not-evaluated', 'a setting did not run');
          const why = collapsed(hi);
          if (why !== undefined) return undecidedColumn(kind, 'not-testable', why);
          const d = compareEstimates(rowMetrics.testAccuracy.estimate(lo, run), rowMetrics.testAccuracy.estimate(hi, run), {
            direction: 'less',
            format: 'pct',
            labels: [`α=${smallest}`, `α=${largest}`],
          });
          return { column: kind, ...d };
        }),
      );
    };
    return {
      tables: [accuracy, advantage, variance],
      claims: [
        trend(
          "CCQL: the members' loss variance grows as α decreases (Kendall τ(α, variance) < 0, p < 0.05)",
          'CCQL',
          (r) => r.lossVariance,
          'decreasing',
          'num',
        ),
        trend(
          "CCEL: the members' loss variance grows as α decreases (Kendall τ(α, variance) < 0, p < 0.05)",
          'CCEL',
          (r) => r.lossVariance,
          'decreasing',
          'num',
        ),
        trend('CCQL: the highest attack advantage grows with α (Kendall τ(α, advantage) > 0, p < 0.05)', 'CCQL', (r) => r.maxAdvantage, 'increasing', 'pct'),
        trend('CCEL: the highest attack advantage grows with α (Kendall τ(α, advantage) > 0, p < 0.05)', 'CCEL', (r) => r.maxAdvantage, 'increasing', 'pct'),
        underfit(),
      ],
      figures: [lineFigure('ccl-fig4', 'Fig. 4: test accuracy, highest advantage and loss variance vs α', points, 'α')],
      notes:
        ctx.scale === 'paper'
          ? []
          : [
              `Reduced scale: Fig. 4 runs on ${dataset === 'purchase' ? 'the Purchase stand-in (purchaseLike, [256, 128] MLP)' : dataset} instead of CIFAR-10/ResNet-34, with β = 1.`,
            ],
    };
  },
};
