import {
  baselineNote,
  compareWithBaseline,
  diagnoseAudit,
  fitBlindBaseline,
  shiftFinding,
  type BaselineComparison,
  type BlindBaselineReport,
} from '@mia/attacks';
import { deriveSeed } from '@mia/core';
import type { RunPlan } from '../plan/plan-run';
import type { RunReferences } from '../references/reference-signals';
import type { DefenseRow, RunDoctor } from './results';
import type { RowRecords } from './row-exposure';
import { datasetRecordFeatures } from './audit-records';
import { runAuditDescription } from './run-audit-description';

/** Confidence of the run's comparisons with the blind baseline (the runner's 95 % everywhere). */
const CONFIDENCE = 0.95;

/** Each row's attack with the highest AUC against the baseline, on the per-record scores of `records` (rows without them are left out). */
function comparisons(
  rows: readonly DefenseRow[],
  records: readonly RowRecords[],
  baseline: { scores: Float64Array; foldOf: Int32Array },
  isMember: Uint8Array,
): BaselineComparison[] {
  return rows.flatMap((row) => {
    const perRecord = records.find((r) => r.row === row.label);
    if (perRecord === undefined || row.attacks.length === 0) return [];
    const scored = row.attacks.filter((a) => perRecord.attacks.includes(a.attack));
    if (scored.length === 0) return [];
    const best = scored.reduce((b, a) => (a.auc > b.auc ? a : b));
    const k = perRecord.attacks.indexOf(best.attack);
    const scores = Float64Array.from([...perRecord.members.scores[k]!, ...perRecord.nonMembers.scores[k]!]);
    if (scores.length !== isMember.length) return [];
    return [compareWithBaseline({ name: best.attack, scores }, baseline, isMember, CONFIDENCE, row.label)];
  });
}

/**
 * The validity of a run's audit (docs/guides/audit-doctor.md): the checks of `diagnoseAudit` on the
 * run's plan and results ({@link runAuditDescription}), and a blind baseline, a logistic regression
 * on the target's evaluation records' features and labels (never a model), cross-fitted, against
 * each row's best attack (by AUC) on the same records. Reads the records through the dataset (their
 * content hashes and features); changes no number of the run.
 * @param records - Each row's per-record scores (`DefenseEvaluation.records`); a row without them gets no comparison.
 */
export function diagnoseRun(plan: RunPlan, rows: readonly DefenseRow[], records: readonly RowRecords[], references: RunReferences | undefined): RunDoctor {
  const findings = diagnoseAudit(runAuditDescription(plan, rows, references));
  const unchecked = importedWithoutHparams(references);
  const { target } = plan.defenses[0]!;
  const indices = [...target.memberIdx, ...target.nonMemberIdx];
  const isMember = Uint8Array.from(indices, (_, i) => (i < target.memberIdx.length ? 1 : 0));
  if (target.memberIdx.length < 2 || target.nonMemberIdx.length < 2)
    return { findings, notes: [...unchecked, 'No blind baseline: the target has fewer than 2 members or non-members.'] };
  const fit = fitBlindBaseline(datasetRecordFeatures(plan.data, indices), isMember, {
    confidence: CONFIDENCE,
    seed: deriveSeed(plan.config.seed, 'blind-baseline'),
  });
  const baseline: BlindBaselineReport = { ...fit.report, comparisons: comparisons(rows, records, fit, isMember) };
  const shift = shiftFinding(baseline);
  const note = baselineNote(baseline);
  return { baseline, findings: [...findings, ...(shift === undefined ? [] : [shift])], notes: [...unchecked, ...(note === undefined ? [] : [note])] };
}

/** The note on imported reference models without an `hparams.json`: how they were trained is not checked. */
function importedWithoutHparams(references: RunReferences | undefined): string[] {
  const missing = (references?.settings ?? []).flatMap((s, k) => (s === undefined ? [k] : []));
  if (missing.length === 0) return [];
  return [
    `${missing.length} of ${references!.models.length} imported reference models have no hparams.json (models ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}): their architecture, training and data are not checked against the target's; \`mia references export\` writes one.`,
  ];
}
