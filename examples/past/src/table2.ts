import { type ExperimentConfig } from '@mia/experiments';
import {
  claimForEveryColumn,
  isNotRun,
  rowMetrics,
  rowOf,
  testabilityProblem,
  type RowMetric,
  type Reproduction,
  type ReproductionTable,
  type RunOutcome,
  type TableCell,
  regime,
} from '@mia/experiments/reproduce';
import { PAST_REGIME } from './table1';
import { CPU_PLAN } from './cpu-plan';
import { DATASET_CLASSES, ablationSetup, describeSetup, pastDefense, pastExperiment, type DatasetSetup, type DefenseSpec } from './configs';

/**
 * Table 2's regime: the base defense alone is the model PAST tunes, "a roughly converged model" (§3.2).
 * A defense lowers its model's fit by design (RelaxLoss stops at its loss level α, L2 and dropout
 * regularise), so PAST Table 1's fit bound for an undefended model (≥ 99 % train) is not what a
 * converged defended base reaches; the base must fit with the docs/protocol.md §5.1 default (≥ 90 %
 * train), generalise above chance and overfit. Our criterion; the paper reports no accuracy of its bases.
 */
export const PAST_TABLE2_REGIME = regime({
  ...PAST_REGIME,
  minTrainAccuracy: 0.9,
  why: 'PAST tunes "a roughly converged model" (§3.2); Table 2 puts PAST on top of other defenses, whose models fit less by design (RelaxLoss stops at its loss level α). Ours: the base defense at train ≥ 90 % (the docs/protocol.md §5.1 default; an undefended model must reach 99 % in Table 1), test ≥ 3× chance, a gap > 0, each met when the value reaches it (at the edge within 2 SE below it); attacks not saturated. The paper reports no accuracy of its base defenses.',
});

/** The base defenses of PAST's comparison (§4.1 "Defense baselines") and their runner form. */
export function baseDefenses(setup: DatasetSetup): Record<string, { name: string; params: Record<string, unknown> } | { notRun: string }> {
  return {
    RelaxLoss: { name: 'relaxloss', params: { alpha: 1, variant: setup.kind, upper: setup.kind === 'image' ? 1 : 0.3 } },
    'Mixup+MMD': { name: 'mixup-mmd', params: {} },
    AdvReg: { name: 'advreg', params: {} },
    'Label smoothing': { name: 'label-smoothing', params: { epsilon: 0.1 } },
    'Confidence penalty': { name: 'confidence-penalty', params: { beta: 0.1 } },
    L1: { name: 'l1', params: { lambda: 1e-3 } },
    // The paper gives no settings for Dropout and L2; p = 0.5 and 10× the default weight decay are ours.
    Dropout: { name: 'dropout', params: { p: 0.5 } },
    L2: { name: 'l2', params: { weightDecay: 5e-3 } },
  };
}

/** Table 2's experiment: every base defense, and PAST (α = 1.5) tuned on top of each (PAST §4.2). */
export function table2Config(setup: DatasetSetup): ExperimentConfig {
  const defenses: DefenseSpec[] = [];
  for (const [label, base] of Object.entries(baseDefenses(setup))) {
    if ('notRun' in base) continue;
    defenses.push({ name: base.name, label, params: base.params });
    defenses.push(pastDefense(setup, `PAST on ${label}`, { alpha: 1.5, base }));
  }
  return pastExperiment('past-table2', setup, defenses);
}

function table(title: string, run: RunOutcome, setup: DatasetSetup, metric: RowMetric, format: 'pct' | 'num', caption: string): ReproductionTable {
  const bases = baseDefenses(setup);
  const columns = Object.keys(bases);
  const cell = (column: string, label: string): TableCell => {
    const base = bases[column]!;
    if ('notRun' in base) return { notRun: base.notRun };
    if (isNotRun(run)) return { notRun: run.notRun };
    const row = rowOf(run, label);
    if (row === undefined) return { notRun: `not run: no defense ${JSON.stringify(label)}` };
    const e = metric.estimate(row, run);
    return { ours: e.value, ...(e.se === undefined ? {} : { se: e.se }), ...(e.seSource === undefined ? {} : { seSource: e.seSource }) };
  };
  return {
    title,
    columns,
    format,
    caption,
    rows: [
      { label: 'PAST', cells: columns.map((c) => cell(c, `PAST on ${c}`)) },
      { label: 'w/o', cells: columns.map((c) => cell(c, c)) },
    ],
  };
}

/**
 * PAST Table 2: P1 of models trained with another defense ("w/o") and of the same models after
 * PAST tuning on top (α = 1.5).
 * @see docs/protocol.md §2.1 (Table 2: α 1.5, 50 tuning epochs on CIFAR-10), §4.5–4.12
 */
export const table2: Reproduction = {
  name: 'past-table2',
  regimes: Object.keys(baseDefenses(CPU_PLAN.ablation)).map((column) => ({
    column,
    regime: PAST_TABLE2_REGIME,
    classes: DATASET_CLASSES[CPU_PLAN.ablation.key],
  })),
  paper: 'PAST (Hu, Zhang & Wei)',
  title: 'Table 2: PAST on top of other defenses',
  source: 'PAST (arXiv:2410.06814), Table 2 (§4.2 "Combined with other defenses")',
  description: 'Each base defense trained alone and with PAST tuning (α = 1.5) after it; P1 with the highest advantage over the attacks.',
  async run(ctx) {
    const setup = ablationSetup('cifar10', ctx.scale);
    const run = await ctx.run('table2', table2Config(setup));
    const p1 = table(
      'Table 2: P1 score',
      run,
      setup,
      rowMetrics.p1,
      'num',
      'Rows: the base defense with PAST tuned on top ("PAST") and alone ("w/o"); higher is better.',
    );
    const acc = table('Table 2 (behind P1): test accuracy', run, setup, rowMetrics.testAccuracy, 'pct', 'Top-1 accuracy on target_test (%).');
    const adv = table(
      'Table 2 (behind P1): highest attack advantage',
      run,
      setup,
      rowMetrics.maxAdvantage,
      'pct',
      'Max advantage over the attacks (%); lower is better.',
    );
    // Each column: the base defense alone is the model PAST tunes, so it must be in PAST's regime; neither may collapse.
    const gateOf = (kind: 'privacy' | 'utility') => (column: string) =>
      isNotRun(run)
        ? undefined
        : testabilityProblem({ results: run, undefended: column, compared: [column, `PAST on ${column}`], regime: PAST_TABLE2_REGIME, kind });
    const gate = gateOf('privacy');
    return {
      tables: [p1, acc, adv],
      claims: [
        claimForEveryColumn({
          table: p1,
          statement: 'P1(PAST on top of a defense) > P1(the defense alone) for every base defense',
          rowA: 'PAST',
          rowB: 'w/o',
          direction: 'greater',
          gate,
        }),
        claimForEveryColumn({
          table: adv,
          statement: 'PAST on top lowers the highest attack advantage of every base defense',
          rowA: 'PAST',
          rowB: 'w/o',
          direction: 'less',
          gate,
        }),
        claimForEveryColumn({
          table: acc,
          statement:
            'PAST on top keeps test accuracy ≥ the base defense − 2 points (our criterion: the paper says PAST preserves accuracy; the 2-point margin is ours, decided as a one-sided non-inferiority test)',
          rowA: 'PAST',
          rowB: 'w/o',
          direction: 'greater',
          offset: -0.02,
          test: 'non-inferiority',
          gate: gateOf('utility'),
        }),
      ],
      notes: [
        describeSetup(setup, ctx.scale),
        ...(ctx.scale === 'paper'
          ? []
          : [
              'The paper runs Table 2 on CIFAR-10 with ResNet-18; at this scale it runs on the purchaseLike stand-in with the Purchase MLP so that all 12 defenses fit the time budget.',
            ]),
        'The paper\'s Table 2 values are not in its text (the table is an image), so no paper values are printed; its defense list is taken from §4.1 "Defense baselines".',
        'Base hyperparameters: RelaxLoss α 1, Mixup+MMD and AdvReg at their package defaults, label smoothing ε 0.1, confidence penalty β 0.1, L1 λ 1e-3 (docs/protocol.md §4.12).',
      ],
    };
  },
};
