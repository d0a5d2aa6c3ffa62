import { isSearchUnaccounted, type AuditDescription } from './audit-description';
import type { AuditFinding } from './audit-finding';
import { overlapOf } from './check-overlap';

const percent = (v: number) => `${+(100 * v).toPrecision(3)} %`;

/** TPRs stated at an FPR below 1/n without the FPR they were read at, and TPRs read at a higher FPR than reported. */
export function checkOperatingPoints(audit: AuditDescription): AuditFinding[] {
  const findings: AuditFinding[] = [];
  const below = (audit.operatingPoints ?? []).filter((p) => p.fpr > 0 && p.fpr < 1 / p.numNonMembers && !p.showsAchievedFpr);
  // One finding per (FPR, non-member count): a table states the same FPR for every attack.
  const seen = new Set<string>();
  for (const p of below) {
    const id = `${p.fpr}:${p.numNonMembers}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const where = below.filter((q) => `${q.fpr}:${q.numNonMembers}` === id).map((q) => q.where);
    findings.push({
      code: 'tpr-below-resolution',
      cause: `a TPR at ${percent(p.fpr)} FPR is stated (${where.slice(0, 3).join('; ')}${where.length > 3 ? `; ${where.length - 3} more` : ''}) with ${p.numNonMembers} non-members, whose smallest non-zero FPR is ${percent(1 / p.numNonMembers)}: it is the TPR at FPR 0`,
      action: `evaluate on at least ${Math.ceil(1 / p.fpr)} non-members, or state the TPR at FPR ≥ ${percent(1 / p.numNonMembers)} (or at FPR 0, as such)`,
      numbers: { fpr: p.fpr, numNonMembers: p.numNonMembers, resolution: 1 / p.numNonMembers },
    });
  }
  for (const p of audit.operatingPoints ?? []) {
    if (p.achievedFpr === undefined || !(p.achievedFpr > p.fpr + 1e-12)) continue;
    findings.push({
      code: 'fpr-mismatch',
      cause: `${p.where}: the TPR reported at ${percent(p.fpr)} FPR was read at ${percent(p.achievedFpr)} FPR`,
      action: 'report the TPR at the ROC vertex whose FPR is at most the target (or report the FPR it was read at)',
      numbers: { fpr: p.fpr, achievedFpr: p.achievedFpr },
    });
  }
  return findings;
}

/** Thresholds, checkpoints, settings or defense data chosen or trained on the evaluation records. */
export function checkSelections(audit: AuditDescription): AuditFinding[] {
  const findings: AuditFinding[] = [];
  for (const s of audit.selections ?? []) {
    const members = s.records === undefined ? { byIndex: 0, byContent: 0 } : overlapOf(s.records, audit.members);
    const nonMembers = s.records === undefined ? { byIndex: 0, byContent: 0 } : overlapOf(s.records, audit.nonMembers);
    const n = members.byIndex + members.byContent + nonMembers.byIndex + nonMembers.byContent;
    if (n === 0 && s.on !== 'evaluation') continue;
    findings.push({
      code: 'selected-on-evaluation',
      cause:
        n > 0
          ? `${s.what} was chosen on ${n} of the evaluation records (${members.byIndex + members.byContent} members, ${nonMembers.byIndex + nonMembers.byContent} non-members)`
          : `${s.what} was chosen on the evaluation records`,
      action: 'choose it on a validation slice disjoint from the evaluation records (partition.validation), then evaluate once',
      numbers: { records: n, members: members.byIndex + members.byContent, nonMembers: nonMembers.byIndex + nonMembers.byContent },
    });
  }
  return findings;
}

/** Settings (architecture, schedule, data) of a reference or shadow model that differ from the target's. */
export function checkTraining(audit: AuditDescription): AuditFinding[] {
  const training = audit.training;
  if (training === undefined) return [];
  const findings: AuditFinding[] = [];
  for (const other of training.others) {
    const differ = Object.keys(training.target).filter(
      (key) => key in other.settings && JSON.stringify(other.settings[key]) !== JSON.stringify(training.target[key]),
    );
    if (differ.length === 0) continue;
    const show = (v: unknown) => {
      const text = JSON.stringify(v) ?? String(v);
      return text.length > 60 ? `${text.slice(0, 57)}…` : text;
    };
    findings.push({
      code: 'training-mismatch',
      cause: `${other.name} was trained with another ${differ.join(', ')} than the target declares (${differ.map((k) => `${k} ${show(other.settings[k])} vs ${show(training.target[k])}`).join('; ')})`,
      action: "train the reference and shadow models with the target's architecture, schedule and data distribution (or declare the target's real ones)",
      numbers: { settings: differ.length },
    });
  }
  return findings;
}

/** DP ε reported for models whose hyperparameters were searched on private data without accounting for it. */
export function checkPrivacy(audit: AuditDescription): AuditFinding[] {
  return (audit.privacy ?? []).flatMap((claim): AuditFinding[] => {
    const search = claim.search;
    if (claim.epsilon === null || search === undefined || !isSearchUnaccounted(search)) return [];
    return [
      {
        code: 'dp-search-unaccounted',
        cause: `${claim.name} reports ε = ${+claim.epsilon.toPrecision(3)}, the ε of one training, but its hyperparameters are the best of ${search.candidates} DP trainings chosen on private data`,
        action:
          'account for the search (Papernot & Steinke 2022: a random number of candidates costs a small multiple of ε; naive composition costs candidates × ε), or choose the hyperparameters on public data, and report that ε',
        numbers: { epsilon: claim.epsilon, candidates: search.candidates },
      },
    ];
  });
}
