import { type ExperimentConfig, type ExperimentResults } from '@mia/experiments';
import { configForSeed, isNotRun, rowOf, type ReproductionContext } from '@mia/experiments/reproduce';
import { gradXAuc } from './grad-x-auc';
import type { Table1Column } from './paper-values';

/** The runner attack behind each black-box AUC column (docs/protocol.md §3.1, §3.2: NN-CRL for CRL). */
export const ATTACK_OF_COLUMN: Readonly<Partial<Record<Table1Column, string>>> = {
  'NN-Based AUC': 'nn-crl',
  'Entropy AUC': 'entropy',
  'M-Entropy AUC': 'modifiedEntropy',
};

/** One defense's measured cells; a missing column has a reason in `reasons`. */
export interface MeasuredRow {
  /** Each column's number: with several training seeds, the mean over them. */
  readonly values: Partial<Record<Table1Column, number>>;
  readonly reasons: Partial<Record<Table1Column, string>>;
  /** Each column's number per training seed, in the order of {@link GroupMeasurement}'s `seeds` (one entry with one seed). */
  readonly perSeed: Partial<Record<Table1Column, readonly number[]>>;
}

/** What a group (one config, one row per defense label) measured, or why it did not run. */
export type GroupMeasurement =
  | { readonly notRun: string }
  | {
      readonly rows: Readonly<Record<string, MeasuredRow>>;
      readonly results: ExperimentResults;
      /** The training seeds the models were trained with (docs/protocol.md §5.2). */
      readonly seeds: readonly number[];
    };

/** Options of {@link measureGroup}. */
export interface MeasureGroupOptions {
  /** Defense labels to measure (rows). */
  readonly labels: readonly string[];
  /** Why Grad-x is skipped for this group (e.g. the paper's "N/A"), or undefined to compute it. */
  readonly skipGradX?: string;
  /** Training seeds per model (`ctx.runSeeds`, docs/protocol.md §5.2). @default 1 */
  readonly seeds?: number;
}

/**
 * Runs one group config through `ctx.runSeeds` (k training seeds, default 1) and measures, per
 * defense label, train and test accuracy, the NN-CRL / entropy / m-entropy AUCs of the runner, and
 * the Grad-x ℓ2 AUC on each seed's loaded target model (unless skipped); with several seeds every
 * column is the mean over seeds and `perSeed` keeps each seed's number.
 * @throws MiaError (from the runner) when a label is missing from the config.
 * @see docs/protocol.md §3, §5.
 */
export async function measureGroup(ctx: ReproductionContext, id: string, config: ExperimentConfig, options: MeasureGroupOptions): Promise<GroupMeasurement> {
  const outcome = await ctx.runSeeds(id, config, options.seeds ?? 1);
  if (isNotRun(outcome)) return { notRun: outcome.notRun };
  const seeds = outcome.trainingSeeds ?? [config.trainingSeed ?? config.seed];
  const mean = (xs: readonly number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;
  const rows: Record<string, MeasuredRow> = {};
  for (const label of options.labels) {
    const row = rowOf(outcome, label);
    if (row === undefined) throw new Error(`measureGroup: no defense labelled ${JSON.stringify(label)} in ${config.name}`);
    const perSeed: Partial<Record<Table1Column, readonly number[]>> = {
      'Train Acc.': row.seeds?.map((s) => s.trainAccuracy) ?? [row.trainAccuracy],
      'Test Acc.': row.seeds?.map((s) => s.testAccuracy) ?? [row.testAccuracy],
    };
    const reasons: Partial<Record<Table1Column, string>> = {};
    for (const [column, attack] of Object.entries(ATTACK_OF_COLUMN) as Array<[Table1Column, string]>) {
      const a = row.attacks.find((r) => r.attack === attack);
      if (a === undefined) reasons[column] = `not run: attack ${attack} missing from the run`;
      else perSeed[column] = row.seeds?.map((s) => s.attacks[attack]?.auc ?? NaN) ?? [a.auc];
    }
    if (options.skipGradX !== undefined) reasons['Grad-x ℓ2 AUC'] = options.skipGradX;
    else {
      const aucs: number[] = [];
      for (const trainingSeed of seeds) {
        ctx.log(`[${id}] Grad-x ℓ2 on the ${label} target${seeds.length > 1 ? ` (training seed ${trainingSeed})` : ''}`);
        aucs.push(await gradXAuc(ctx, configForSeed(config, trainingSeed), label));
      }
      perSeed['Grad-x ℓ2 AUC'] = aucs;
    }
    const values = Object.fromEntries(Object.entries(perSeed).map(([c, v]) => [c, mean(v)])) as Partial<Record<Table1Column, number>>;
    rows[label] = { values, reasons, perSeed };
  }
  return { rows, results: outcome, seeds };
}
