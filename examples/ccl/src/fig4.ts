import { type DefenseRow } from '@mia/experiments';
import { byScale, claim, formatValue, isNotRun, type Claim, type Reproduction, type ReproductionScale, type ReproductionTable } from '@mia/experiments/reproduce';
import { UNDEFENDED, baseConfig, cclBeta, cclDefense, type CclDataset } from './configs';
import { lineFigure, type SeriesPoint } from './figures';
import { spearman } from './rank-correlation';
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

function trendClaim(statement: string, kind: string, alphas: readonly number[], values: ReadonlyArray<number | undefined>, sign: 1 | -1, format: 'pct' | 'num'): Claim {
  const pairs = alphas.map((a, i) => [a, values[i]] as const).filter((p): p is readonly [number, number] => p[1] !== undefined);
  if (pairs.length < 2) return claim(statement, undefined, `${kind}: fewer than two α settings ran`);
  const rho = spearman(pairs.map((p) => p[0]), pairs.map((p) => p[1]));
  const list = pairs.map(([a, v]) => `α=${a}: ${formatValue(v, format)}`).join(', ');
  return claim(statement, Number.isNaN(rho) ? false : sign * rho > 0, `${kind}: Spearman ρ(α, value) = ${Number.isNaN(rho) ? 'NaN' : rho.toFixed(3)} (${list})`);
}

/**
 * CCL Fig. 4: the effect of α on utility (test accuracy), privacy (highest attack advantage) and the
 * members' loss variance, for CCQL and CCEL, with plain cross-entropy (α = 1) as the reference row.
 * @see CCL (arXiv:2402.05453) Fig. 4, §5.2 "How does α affect utility and privacy?"
 */
export const fig4: Reproduction = {
  name: 'ccl-fig4',
  paper: 'CCL (Liu et al., ICML 2024)',
  title: 'CCL Fig. 4: effect of α on test accuracy, highest attack advantage and loss variance',
  source: 'CCL (arXiv:2402.05453), Figure 4',
  async run(ctx) {
    const dataset = fig4Dataset(ctx.scale);
    const config = baseConfig(`ccl-alpha-${dataset}-${ctx.scale}`, dataset, ctx.scale, alphaSweepDefenses(dataset, ctx.scale), ctx.dataDir === undefined ? {} : { dataDir: ctx.dataDir });
    const outcome = await ctx.run(`alpha-${dataset}`, config);
    const alphas = alphaGrid(ctx.scale);
    const get = (kind: string, a: number) => settingOf(outcome, a === 1 ? CE_LABEL : `${kind} α=${a}`);
    // Rows are the α values plus cross-entropy (α = 1); the columns read the CCQL or CCEL setting of that α.
    const rowAlphas = [...alphas, 1];
    const table = (title: string, metric: (r: DefenseRow) => number, format: 'pct' | 'num', caption: string): ReproductionTable => ({
      title, columns: ['CCQL', 'CCEL'], format, caption,
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
    const variance = table('Fig. 4c: loss variance of the members vs α', (r) => r.lossVariance, 'num', 'Population variance of the per-example cross-entropy on target_train.');
    const series = (kind: 'CCQL' | 'CCEL', metric: (r: DefenseRow) => number) => alphas.map((a) => {
      const s = get(kind, a);
      return isNotRun(s) ? undefined : metric(s);
    });
    const points: SeriesPoint[] = [];
    for (const kind of ['CCQL', 'CCEL'] as const) {
      for (const [panel, metric] of [['test accuracy', (r: DefenseRow) => r.testAccuracy], ['highest advantage', (r: DefenseRow) => r.maxAdvantage], ['loss variance', (r: DefenseRow) => r.lossVariance]] as const) {
        series(kind, metric).forEach((y, i) => { if (y !== undefined) points.push({ series: kind, panel, x: alphas[i]!, y }); });
      }
    }
    const smallest = alphas[0]!;
    const largest = alphas[alphas.length - 1]!;
    const accuracyClaim = (['CCQL', 'CCEL'] as const).map((kind) => {
      const lo = get(kind, smallest);
      const hi = get(kind, largest);
      return isNotRun(lo) || isNotRun(hi) ? undefined : { kind, lo: lo.testAccuracy, hi: hi.testAccuracy };
    });
    return {
      tables: [accuracy, advantage, variance],
      claims: [
        trendClaim('CCQL: the members\' loss variance grows as α decreases (Spearman ρ(α, variance) < 0)', 'CCQL', alphas, series('CCQL', (r) => r.lossVariance), -1, 'num'),
        trendClaim('CCEL: the members\' loss variance grows as α decreases (Spearman ρ(α, variance) < 0)', 'CCEL', alphas, series('CCEL', (r) => r.lossVariance), -1, 'num'),
        trendClaim('CCQL: the highest attack advantage grows with α (Spearman ρ(α, advantage) > 0)', 'CCQL', alphas, series('CCQL', (r) => r.maxAdvantage), 1, 'pct'),
        trendClaim('CCEL: the highest attack advantage grows with α (Spearman ρ(α, advantage) > 0)', 'CCEL', alphas, series('CCEL', (r) => r.maxAdvantage), 1, 'pct'),
        claim(
          `a small α underfits: test accuracy at α=${smallest} < at α=${largest}, for CCQL and CCEL`,
          accuracyClaim.every((c) => c !== undefined) ? accuracyClaim.every((c) => c!.lo < c!.hi) : undefined,
          accuracyClaim.map((c, i) => (c === undefined ? `${['CCQL', 'CCEL'][i]}: not run` : `${c.kind}: ${formatValue(c.lo, 'pct')} vs ${formatValue(c.hi, 'pct')}`)).join('; '),
        ),
      ],
      figures: [lineFigure('ccl-fig4', 'Fig. 4: test accuracy, highest advantage and loss variance vs α', points, 'α')],
      notes: ctx.scale === 'paper' ? [] : [`Reduced scale: Fig. 4 runs on ${dataset === 'purchase' ? 'the Purchase stand-in (purchaseLike, [256, 128] MLP)' : dataset} instead of CIFAR-10/ResNet-34, with β = 1.`],
    };
  },
};
