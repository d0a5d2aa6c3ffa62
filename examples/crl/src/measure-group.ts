import { type ExperimentConfig, type ExperimentResults } from '@mia/experiments';
import { isNotRun, rowOf, type ReproductionContext } from '@mia/experiments/reproduce';
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
  readonly values: Partial<Record<Table1Column, number>>;
  readonly reasons: Partial<Record<Table1Column, string>>;
}

/** What a group (one config, one row per defense label) measured, or why it did not run. */
export type GroupMeasurement = { readonly notRun: string } | { readonly rows: Readonly<Record<string, MeasuredRow>>; readonly results: ExperimentResults };

/** Options of {@link measureGroup}. */
export interface MeasureGroupOptions {
  /** Defense labels to measure (rows). */
  readonly labels: readonly string[];
  /** Why Grad-x is skipped for this group (e.g. the paper's "N/A"), or undefined to compute it. */
  readonly skipGradX?: string;
}

/**
 * Runs one group config through `ctx.run` and measures, per defense label, train and test
 * accuracy, the NN-CRL / entropy / m-entropy AUCs of the runner, and the Grad-x ℓ2 AUC on the
 * loaded target model (unless skipped).
 * @throws MiaError (from the runner) when a label is missing from the config.
 * @see docs/protocol.md §3, §5.
 */
export async function measureGroup(ctx: ReproductionContext, id: string, config: ExperimentConfig, options: MeasureGroupOptions): Promise<GroupMeasurement> {
  const outcome = await ctx.run(id, config);
  if (isNotRun(outcome)) return { notRun: outcome.notRun };
  const rows: Record<string, MeasuredRow> = {};
  for (const label of options.labels) {
    const row = rowOf(outcome, label);
    if (row === undefined) throw new Error(`measureGroup: no defense labelled ${JSON.stringify(label)} in ${config.name}`);
    const values: Partial<Record<Table1Column, number>> = { 'Train Acc.': row.trainAccuracy, 'Test Acc.': row.testAccuracy };
    const reasons: Partial<Record<Table1Column, string>> = {};
    for (const [column, attack] of Object.entries(ATTACK_OF_COLUMN) as Array<[Table1Column, string]>) {
      const a = row.attacks.find((r) => r.attack === attack);
      if (a === undefined) reasons[column] = `not run: attack ${attack} missing from the run`;
      else values[column] = a.auc;
    }
    if (options.skipGradX !== undefined) reasons['Grad-x ℓ2 AUC'] = options.skipGradX;
    else {
      ctx.log(`[${id}] Grad-x ℓ2 on the ${label} target`);
      values['Grad-x ℓ2 AUC'] = await gradXAuc(ctx, config, label);
    }
    rows[label] = { values, reasons };
  }
  return { rows, results: outcome };
}
