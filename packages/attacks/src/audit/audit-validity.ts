import type { AuditDescription, RecordSet } from '../doctor/audit-description';
import type { AuditFinding } from '../doctor/audit-finding';
import { diagnoseAudit } from '../doctor/diagnose-audit';
import { baselineNote, compareWithBaseline, fitBlindBaseline, shiftFinding, type BlindBaselineReport } from '../doctor/blind-baseline-report';
import type { RecordFeatures } from '../doctor/record-features';
import type { AuditAttackResult } from './audit-attack-metrics';

/**
 * What an audit knows about how it was made, for its validity checks ({@link AuditDescription}
 * without the evaluation records, which the audit fills in; give them to check overlaps by index).
 */
export type AuditProvenance = Omit<AuditDescription, 'members' | 'nonMembers'> & { readonly members?: RecordSet; readonly nonMembers?: RecordSet };

/** Whether an audit can be trusted: its blind baseline, the best attack against it, and every finding. */
export interface AuditValidity {
  /** The model-free classifier of membership and the best attack against it. */
  readonly baseline: BlindBaselineReport;
  /** What makes the audit's numbers untrustworthy (empty: nothing found). */
  readonly findings: readonly AuditFinding[];
  /** What the reader should know but does not invalidate the audit. */
  readonly notes: readonly string[];
}

/** What {@link auditValidity} reads (internal). */
export interface AuditValidityInput {
  readonly attacks: readonly AuditAttackResult[];
  readonly memberLabels: Int32Array;
  readonly nonMemberLabels: Int32Array;
  /** The records' features (members, then non-members); absent: the labels alone. */
  readonly records?: RecordFeatures;
  readonly provenance?: AuditProvenance;
  readonly fprs: readonly number[];
  readonly confidence: number;
  readonly seed: number;
}

/**
 * The validity of an audit (internal; `auditScores` and `auditModel` call it): the blind baseline
 * on the records (or their labels) against the attack with the highest AUC, the distribution-shift
 * finding, and the checks of {@link diagnoseAudit} on the provenance, with the report's own TPR@FPR
 * columns as operating points (the report does not show the FPR they were read at).
 */
export function auditValidity(input: AuditValidityInput): AuditValidity {
  const { memberLabels, nonMemberLabels, confidence } = input;
  const isMember = Uint8Array.from({ length: memberLabels.length + nonMemberLabels.length }, (_, i) => (i < memberLabels.length ? 1 : 0));
  const labels = Int32Array.from([...memberLabels, ...nonMemberLabels]);
  const { report, scores, foldOf } = fitBlindBaseline(input.records ?? { labels }, isMember, { confidence, seed: input.seed });
  const best = input.attacks.reduce((b, a) => (a.auc.estimate > b.auc.estimate ? a : b));
  const comparison = compareWithBaseline(
    { name: best.name, scores: Float64Array.from([...best.memberScores, ...best.nonMemberScores]) },
    { scores, foldOf },
    isMember,
    confidence,
  );
  const baseline: BlindBaselineReport = { ...report, comparisons: [comparison] };
  const provenance = input.provenance ?? {};
  const description: AuditDescription = {
    ...provenance,
    members: provenance.members ?? {},
    nonMembers: provenance.nonMembers ?? {},
    operatingPoints: [
      ...input.fprs.map((fpr) => ({
        where: `the report's TPR@${+(100 * fpr).toPrecision(3)} % column`,
        fpr,
        numNonMembers: nonMemberLabels.length,
        showsAchievedFpr: false,
      })),
      ...(provenance.operatingPoints ?? []),
    ],
  };
  const shift = shiftFinding(baseline);
  const note = baselineNote(baseline);
  return { baseline, findings: [...diagnoseAudit(description), ...(shift === undefined ? [] : [shift])], notes: note === undefined ? [] : [note] };
}
