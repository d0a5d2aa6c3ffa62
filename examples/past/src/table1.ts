import { type ExperimentConfig } from '@mia/experiments';
import {
  claimForEveryColumn,
  isNotRun,
  metricTable,
  pairedColumnSe,
  regime,
  regimeGate,
  rowMetrics,
  type Reproduction,
  type ReproductionContext,
  type ReproductionScale,
  type RunOutcome,
} from '@mia/experiments/reproduce';
import { LAMBDA_SELECTION } from './cpu-plan';
import { DATASET_CLASSES, DATASET_COLUMNS, datasetSetup, describeSetup, pastDefense, pastExperiment, type DatasetSetup, type PastDatasetKey } from './configs';

const KEYS: readonly PastDatasetKey[] = ['texas', 'purchase', 'cifar10', 'cifar100', 'imagenet'];

/** The row label of the matched control: the undefended model plus PAST's tuning phase with the penalty off. */
export const TUNING_CONTROL = 'w/o + tuning (λ=0)';

/**
 * The Table 1 experiment of one dataset: undefended ("w/o"), PAST with α = 2.5 (PAST §4.2), and the
 * matched control {@link TUNING_CONTROL}: the same phase-1 model from the cache, the same tuning
 * epochs, LR and non-member passes, λ = 0 — so PAST's gain over "w/o" is not just more training
 * (docs/protocol.md §2.1, §4.1). Shared with Fig. 1b/2 (CIFAR-10), so those models are trained once.
 */
export function table1Config(setup: DatasetSetup): ExperimentConfig {
  return pastExperiment(`past-table1-${setup.key}`, setup, [
    { name: 'none', label: 'w/o' },
    pastDefense(setup, 'PAST'),
    pastDefense(setup, TUNING_CONTROL, { lambda: 0 }),
  ]);
}

/** Runs the Table 1 experiment of every dataset (ImageNet: not run), keyed by column. */
export async function runTable1(ctx: ReproductionContext): Promise<{ runs: Record<string, RunOutcome>; notes: string[] }> {
  const runs: Record<string, RunOutcome> = {};
  const notes: string[] = [];
  const outcomes: Partial<Record<PastDatasetKey, RunOutcome>> = {};
  // The anchor column first, so an interrupted run has spent its time on the headline models (the
  // cache resumes the rest); the table keeps the paper's column order.
  for (const key of [...KEYS].sort((a, b) => Number(b === 'cifar10') - Number(a === 'cifar10'))) {
    const setup = datasetSetup(key, ctx.scale);
    if (isNotRun(setup)) {
      outcomes[key] = setup;
      continue;
    }
    outcomes[key] = await ctx.runSeeds(`table1-${key}`, table1Config(setup), setup.seeds ?? 1);
  }
  for (const key of KEYS) {
    runs[DATASET_COLUMNS[key]] = outcomes[key]!;
    const setup = datasetSetup(key, ctx.scale);
    if (!isNotRun(setup)) notes.push(describeSetup(setup, ctx.scale));
  }
  return { runs, notes };
}

/**
 * PAST's regime (docs/anchors.md "What the regime gate checks"): the paper tunes "a roughly
 * converged model" (§3.2), so the undefended phase-1 model must fit its members (≥ 99 % train,
 * met when reached; at the edge within 2 SE below); the other thresholds are the docs/protocol.md
 * §5.1 defaults.
 */
export const PAST_REGIME = regime({
  minTrainAccuracy: 0.99,
  paper: {
    source:
      'PAST (arXiv:2410.06814) reports no train or test accuracy and no attack level of its undefended models: only P1 (Table 1, w/o: Texas 0.557, Purchase 0.792, CIFAR-10 0.638, CIFAR-100 0.360) and "a roughly converged model" (§3.2)',
  },
  why: 'PAST tunes "a roughly converged model" (§3.2) trained for 100 epochs (§4.1), whose loss gap and attack advantage grow with training (§3.1, Fig. 1a/2c); the paper reports no train/test accuracy of its undefended models, only P1 (Table 1, w/o: Texas 0.557, Purchase 0.792, CIFAR-10 0.638, CIFAR-100 0.360). Ours: undefended train ≥ 99 % (fitted), test ≥ 3× chance, a gap > 0, each met when the value reaches it (at the edge of the regime, not testable, within 2 SE below it); attacks not saturated (best attack accuracy < 95 %, AUC < 0.99)',
});

/** Whether a scale's tabular columns are the stand-ins (so the report says so). */
const standInNote = (scale: ReproductionScale) =>
  scale === 'paper'
    ? []
    : [
        'The Texas and Purchase columns use the synthetic stand-ins texasLike / purchaseLike at this scale (real Texas100 / Purchase100 need --data-dir and --scale paper).',
      ];

/**
 * PAST Table 1: P1 of PAST (α = 2.5) vs the undefended model on every dataset, with the test
 * accuracy and the max advantage behind each P1.
 * @see docs/protocol.md §2.1, §5 (P1 with the max advantage over attacks, A31)
 */
export const table1: Reproduction = {
  name: 'past-table1',
  regimes: (['texas', 'purchase', 'cifar10', 'cifar100'] as const).map((key) => ({
    column: DATASET_COLUMNS[key],
    regime: PAST_REGIME,
    classes: DATASET_CLASSES[key],
  })),
  paper: 'PAST (Hu, Zhang & Wei)',
  title: 'Table 1: P1 of PAST vs undefended models per dataset',
  source: 'PAST (arXiv:2410.06814), Table 1 (§4.2 "Is PAST effective with different datasets?")',
  description:
    'Undefended targets and PAST-tuned targets (α = 2.5, λ per dataset), shadow models trained the same way, attacked with NN-MLH, the five metric attacks and (images) the rotation/translation attacks; P1 uses the highest advantage.',
  async run(ctx) {
    const { runs, notes } = await runTable1(ctx);
    const rows = ['PAST', 'w/o', TUNING_CONTROL];
    // PAST (arXiv:2410.06814) Table 1 (P1 score): PAST / w/o on Texas, Purchase, CIFAR-10, CIFAR-100, ImageNet.
    const paper = {
      PAST: { Texas: 0.572, Purchase: 0.812, 'CIFAR-10': 0.784, 'CIFAR-100': 0.575, ImageNet: 0.438 },
      'w/o': { Texas: 0.557, Purchase: 0.792, 'CIFAR-10': 0.638, 'CIFAR-100': 0.36, ImageNet: 0.35 },
    };
    const p1 = metricTable({
      title: 'Table 1: P1 score',
      runs,
      rows,
      metric: rowMetrics.p1,
      format: 'num',
      paper,
      caption: 'P1 = 2·Acc·(1 − Adv)/(Acc + 1 − Adv) with the highest advantage over the attacks; higher is better.',
    });
    const acc = metricTable({
      title: 'Table 1 (behind P1): test accuracy',
      runs,
      rows,
      metric: rowMetrics.testAccuracy,
      format: 'pct',
      caption: 'Top-1 accuracy on target_test (%). The paper prints only P1.',
    });
    const train = metricTable({
      title: 'Table 1 (behind P1): train accuracy',
      runs,
      rows,
      metric: rowMetrics.trainAccuracy,
      format: 'pct',
      caption: "Top-1 accuracy on the target's members (%): the regime reached (the gate asks the undefended model for ≥ 99 %). The paper reports none.",
    });
    const adv = metricTable({
      title: 'Table 1 (behind P1): highest attack advantage',
      runs,
      rows,
      metric: rowMetrics.maxAdvantage,
      format: 'pct',
      caption: 'Max over the attacks of TPR − FPR (%); lower is better.',
    });
    const validation = metricTable({
      title: 'Table 1 (behind P1): validation accuracy',
      runs,
      rows,
      metric: (r) => r.validationAccuracy ?? Number.NaN,
      format: 'pct',
      caption: 'Top-1 accuracy on the validation slice (cut from target_inference, never attacked; docs/protocol.md A11), on which λ was chosen.',
    });
    const gap = metricTable({
      title: 'Table 1 (behind P1): loss gap',
      runs,
      rows,
      metric: (r) => r.lossGap,
      format: 'num',
      caption: 'Mean non-member loss − mean member loss of the target (PAST §3.1); lower is better.',
    });
    const gate = regimeGate({ runs, undefended: 'w/o', compared: ['PAST', 'w/o', TUNING_CONTROL], regime: PAST_REGIME });
    return {
      tables: [p1, acc, train, adv, gap, ...(ctx.scale === 'cpu' ? [validation] : [])],
      claims: [
        claimForEveryColumn({
          table: p1,
          statement: 'P1(PAST) > P1(undefended) on every dataset',
          rowA: 'PAST',
          rowB: 'w/o',
          direction: 'greater',
          gate,
          differenceSe: pairedColumnSe(runs, 'PAST', 'w/o', 'p1'),
        }),
        claimForEveryColumn({
          table: acc,
          statement:
            "PAST's test accuracy ≥ undefended − 2 points on every dataset (our criterion: the paper says PAST preserves accuracy; the 2-point margin is ours, decided as a one-sided non-inferiority test)",
          rowA: 'PAST',
          rowB: 'w/o',
          direction: 'greater',
          offset: -0.02,
          test: 'non-inferiority',
          differenceSe: pairedColumnSe(runs, 'PAST', 'w/o', 'testAccuracy'),
          gate: regimeGate({ runs, undefended: 'w/o', compared: ['PAST', 'w/o', TUNING_CONTROL], regime: PAST_REGIME, kind: 'utility' }),
        }),
        claimForEveryColumn({
          table: adv,
          statement: "PAST's highest attack advantage < undefended's on every dataset",
          rowA: 'PAST',
          rowB: 'w/o',
          direction: 'less',
          gate,
          differenceSe: pairedColumnSe(runs, 'PAST', 'w/o', 'maxAdvantage'),
        }),
        // Matched control (not in the paper): PAST's gain must come from the penalty, not from the extra tuning epochs.
        claimForEveryColumn({
          table: p1,
          statement: `P1(PAST) > P1(${TUNING_CONTROL}) on every dataset (our criterion: the penalty, not the extra training, makes the gain)`,
          rowA: 'PAST',
          rowB: TUNING_CONTROL,
          direction: 'greater',
          gate,
          differenceSe: pairedColumnSe(runs, 'PAST', TUNING_CONTROL, 'p1'),
        }),
      ],
      notes: [
        ...standInNote(ctx.scale),
        ...notes,
        `Claims are gated on ${PAST_REGIME.why}.`,
        `"${TUNING_CONTROL}" is a matched control the paper does not have: the same cached phase-1 model tuned with the same epochs, LR, α and non-member passes, with λ = 0, so PAST's difference from it is the penalty's, not more training.`,
        ...(ctx.scale === 'cpu'
          ? [
              `λ at this scale was chosen on the validation slice (cut from target_inference, disjoint from every attacked or trained-on set): from {${LAMBDA_SELECTION.grid.join(', ')}} the largest λ whose validation accuracy stays within ${100 * LAMBDA_SELECTION.tolerance} point of the λ = 0 control's (docs/protocol.md A11): Purchase (used for Texas too) and, on its own slice and seed-0 phase-1 model, CIFAR-10 (λ = 1e-5; the paper's 1e-3 left the model at 43 % train accuracy).`,
            ]
          : []),
        'The max advantage is over NN-MLH, correctness, loss, confidence, entropy and m-entropy, plus the rotation (±1°) and translation (d = 1) augmentation attacks on the image datasets.',
      ],
    };
  },
};
