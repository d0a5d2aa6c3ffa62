import { InvalidDatasetError, deriveSeed } from '@mia/core';
import { cclPlugin } from '@mia/defense-ccl';
import { prepareData } from '@mia/experiments';
import {
  notEvaluated,
  compareEstimates,
  decidedClaim,
  formatValue,
  type Claim,
  type Reproduction,
  type ReproductionScale,
  type ReproductionTable,
} from '@mia/experiments/reproduce';
import { createModel } from '@mia/models';
import { UNDEFENDED, baseConfig, cclBeta, type CclDataset } from './configs';
import { lineFigure, type SeriesPoint } from './figures';
import { memberLossDynamics, type EpochLossStats, type LossVariant } from './member-loss-dynamics';

/** Fig. 1's dataset: CIFAR-10 (ResNet-34 in the paper, small-cnn at cpu scale); the Purchase stand-in at smoke. */
export const fig1Dataset = (scale: ReproductionScale): CclDataset => (scale === 'smoke' ? 'purchase' : 'cifar10');

/** The losses compared: cross-entropy, focal loss (γ = 2) and CCQL (α = 0.5). */
export function fig1Variants(beta: number): LossVariant[] {
  return [
    { label: 'CE' },
    // α = 1 leaves only the convex term: plain focal loss (1 − p_y)^γ·CE.
    { label: 'FL', plugin: () => cclPlugin({ alpha: 1, base: 'focal', gamma: 2, scale: beta }) },
    { label: 'CCQL', plugin: () => cclPlugin({ alpha: 0.5, concave: 'quadratic', scale: beta }) },
  ];
}

/** At most `n` evenly spaced epochs (always the last) for the tables; the figure shows every epoch. */
function shownEpochs(epochs: number, n = 8): number[] {
  if (epochs <= n) return Array.from({ length: epochs }, (_, i) => i + 1);
  return [...new Set(Array.from({ length: n }, (_, i) => Math.round(((i + 1) * epochs) / n)))];
}

function statsTable(
  title: string,
  dynamics: Map<string, EpochLossStats[]>,
  pick: (s: EpochLossStats) => number,
  epochs: number,
  caption: string,
): ReproductionTable {
  const shown = shownEpochs(epochs);
  return {
    title,
    caption,
    format: 'num',
    columns: shown.map((e) => `epoch ${e}`),
    rows: [...dynamics].map(([label, stats]) => ({
      label,
      cells: shown.map((e) => {
        const s = stats.find((x) => x.epoch === e);
        return s === undefined ? { notRun: 'not run: the epoch was not reached' } : { ours: pick(s) };
      }),
    })),
  };
}

/**
 * CCL Fig. 1: the mean and variance of the members' cross-entropy over the epochs for models trained
 * with CE, focal loss (stronger convexity) and CCQL. Theorem 3.1 predicts focal < CE < CCQL in variance.
 * @see CCL (arXiv:2402.05453) Fig. 1, §3.1–3.2
 */
export const fig1: Reproduction = {
  name: 'ccl-fig1',
  paper: 'CCL (Liu et al., ICML 2024)',
  title: "CCL Fig. 1: mean and variance of the members' loss per epoch, CE vs focal loss vs CCQL",
  source: 'CCL (arXiv:2402.05453), Figure 1',
  async run(ctx) {
    const dataset = fig1Dataset(ctx.scale);
    // At cpu scale: CPU_PLAN.figures.cifar10, Table 1's CIFAR-10 setup (2,500 members × 40 epochs), so the dynamics are an overfit model's.
    const config = baseConfig(
      `ccl-fig1-${dataset}-${ctx.scale}`,
      dataset,
      ctx.scale,
      [UNDEFENDED()],
      ctx.dataDir === undefined ? {} : { dataDir: ctx.dataDir },
    );
    const notes = [
      "The models are trained by this reproduction's own loop (every epoch is measured), not taken from the runner's cache.",
      "Focal loss is (1 − p_y)^γ·CE with γ = 2 (Lin et al.); the paper's text writes log(1 − p_y), a typo.",
      ...(ctx.scale === 'paper'
        ? []
        : [
            `Reduced scale: ${dataset === 'cifar10' ? 'CIFAR-10 subset with small-cnn instead of ResNet-34' : 'the Purchase stand-in with a tiny MLP'}, ${config.training.epochs} epochs, β = 1.`,
          ]),
    ];
    const statements = [
      'focal loss gives a smaller member loss variance than CE at the last epoch',
      'focal loss gives a higher member loss mean than CE at the last epoch',
      'CCQL gives a larger member loss variance than CE at the last epoch (Theorem 3.2)',
    ];
    let data;
    try {
      data = await prepareData(config, ctx.dataDir === undefined ? {} : { dataDir: ctx.dataDir });
    } catch (error) {
      if (!InvalidDatasetError.isInstance(error)) throw error;
      const reason = `not run: dataset not available (${(error as Error).message})`;
      const empty = (title: string): ReproductionTable => ({
        title,
        format: 'num',
        columns: ['epoch 1'],
        rows: ['CE', 'FL', 'CCQL'].map((label) => ({ label, cells: [{ notRun: reason }] })),
      });
      return {
        tables: [empty('Fig. 1a: mean loss of the members'), empty('Fig. 1b: loss variance of the members')],
        claims: statements.map((s) => notEvaluated(s, reason)),
        notes,
      };
    }
    const seed = deriveSeed(config.seed, 'target');
    ctx.log(`[fig1] training CE, FL and CCQL on ${dataset} (${data.partition.roles.target_train!.length} members, ${config.training.epochs} epochs)`);
    const dynamics = await memberLossDynamics(data.dataset, data.partition.roles.target_train!, {
      createModel: () =>
        createModel(config.model.name, {
          ...config.model.options,
          numClasses: data.dataset.numClasses,
          inputShape: [...data.dataset.inputShape],
          seed: deriveSeed(seed, 'init'),
        }),
      training: config.training,
      variants: fig1Variants(cclBeta(dataset, ctx.scale)),
      seed,
      ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
    });
    const epochs = config.training.epochs;
    const last = (label: string) => dynamics.get(label)!.at(-1)!;
    // SEs over the n members: the mean's sqrt(var/n); the variance's var·sqrt(2/(n−1)) (normal approximation,
    // optimistic for heavy-tailed losses). Decided with a 2-SE margin (docs/protocol.md §5.1).
    const n = data.partition.roles.target_train!.length;
    const estimate = (s: EpochLossStats, which: 'mean' | 'variance') => ({
      value: s[which],
      se: which === 'mean' ? Math.sqrt(s.variance / n) : s.variance * Math.sqrt(2 / Math.max(1, n - 1)),
    });
    const compare = (statement: string, a: string, b: string, which: 'mean' | 'variance', direction: 'greater' | 'less'): Claim => {
      const d = compareEstimates(estimate(last(a), which), estimate(last(b), which), { direction, format: 'num', labels: [a, b] });
      return decidedClaim(statement, { ...d, evidence: `epoch ${epochs}, ${which} of the members' loss: ${d.evidence}` });
    };
    const points: SeriesPoint[] = [...dynamics].flatMap(([series, stats]) =>
      stats.flatMap((s) => [
        { series, panel: "mean of the members' loss", x: s.epoch, y: s.mean },
        { series, panel: "variance of the members' loss", x: s.epoch, y: s.variance },
      ]),
    );
    return {
      tables: [
        statsTable('Fig. 1a: mean loss of the members', dynamics, (s) => s.mean, epochs, 'Mean per-example cross-entropy on target_train after each epoch.'),
        statsTable(
          'Fig. 1b: loss variance of the members',
          dynamics,
          (s) => s.variance,
          epochs,
          'Population variance of the per-example cross-entropy on target_train after each epoch.',
        ),
      ],
      claims: [
        compare(statements[0]!, 'FL', 'CE', 'variance', 'less'),
        compare(statements[1]!, 'FL', 'CE', 'mean', 'greater'),
        compare(statements[2]!, 'CCQL', 'CE', 'variance', 'greater'),
      ],
      figures: [lineFigure('ccl-fig1', "Fig. 1: mean and variance of the members' loss per epoch", points, 'epoch')],
      notes,
    };
  },
};
