import type { AuditDescription } from './audit-description';
import type { AuditFinding } from './audit-finding';
import { checkPrivacy, checkOperatingPoints, checkSelections, checkTraining } from './check-claims';
import { checkOverlap } from './check-overlap';
import { checkReferences } from './check-references';

/**
 * The validity checks of an audit (`mia doctor`'s, and those `auditModel`, `mia run`, `mia attack
 * --scores` and `mia gate` run): overlaps of shadow and reference training sets with the evaluation
 * records (by index and by content), duplicated evaluation records, reference models too few or
 * unbalanced for the attacks that use them, TPRs stated below the FPR resolution or at another FPR
 * than they were read at, choices made on the evaluation records, reference or shadow models
 * trained unlike the target, and DP ε that ignore a hyperparameter search. Each finding names its
 * cause with its numbers and what to do. The blind baseline's `distribution-shift` finding comes
 * from `shiftFinding`, which needs the records' features.
 *
 * @param audit - {@link AuditDescription}: what the checks read; a part left out is not checked.
 * @returns The findings, in the order of the checks (empty: nothing found).
 * @see docs/guides/audit-doctor.md for every code, its meaning and its reference.
 */
export function diagnoseAudit(audit: AuditDescription): AuditFinding[] {
  return [
    ...checkOverlap(audit),
    ...checkReferences(audit),
    ...checkOperatingPoints(audit),
    ...checkSelections(audit),
    ...checkTraining(audit),
    ...checkPrivacy(audit),
  ];
}
