import type { AuditDescription, RecordSet } from './audit-description';
import type { AuditFinding } from './audit-finding';

/** How many records of `a` are in `b`: by index (when both have ids) and by content (when both have hashes, records not already matched by index). */
export function overlapOf(a: RecordSet, b: RecordSet): { byIndex: number; byContent: number } {
  const ids = b.ids === undefined ? undefined : new Set(Array.from(b.ids));
  const hashes = b.hashes === undefined ? undefined : new Set(b.hashes);
  let [byIndex, byContent] = [0, 0];
  const size = a.ids?.length ?? a.hashes?.length ?? 0;
  for (let i = 0; i < size; i++) {
    if (ids !== undefined && a.ids !== undefined && ids.has(a.ids[i]!)) byIndex++;
    else if (hashes !== undefined && a.hashes !== undefined && hashes.has(a.hashes[i]!)) byContent++;
  }
  return { byIndex, byContent };
}

const counted = (o: { byIndex: number; byContent: number }) =>
  [o.byIndex > 0 ? `${o.byIndex} by index` : '', o.byContent > 0 ? `${o.byContent} by content` : ''].filter((s) => s !== '').join(', ');

/** Shadow models trained on evaluation records; evaluation non-members that are copies of members. */
export function checkOverlap(audit: AuditDescription): AuditFinding[] {
  const findings: AuditFinding[] = [];
  for (const shadow of audit.shadows ?? []) {
    const members = overlapOf(shadow.members, audit.members);
    const nonMembers = overlapOf(shadow.members, audit.nonMembers);
    const total = members.byIndex + members.byContent + nonMembers.byIndex + nonMembers.byContent;
    if (total === 0) continue;
    findings.push({
      code: 'shadow-overlap',
      cause: `shadow model ${shadow.name} trained on ${total} of the target's evaluation records: ${members.byIndex + members.byContent} members (${counted(members) || 'none'}), ${nonMembers.byIndex + nonMembers.byContent} non-members (${counted(nonMembers) || 'none'})`,
      action: "train the shadow models on data disjoint from the target's members and evaluation non-members (e.g. the partition's shadow roles)",
      numbers: {
        members: members.byIndex + members.byContent,
        nonMembers: nonMembers.byIndex + nonMembers.byContent,
        byContent: members.byContent + nonMembers.byContent,
      },
    });
  }
  const copies = overlapOf(audit.nonMembers, audit.members);
  if (copies.byIndex + copies.byContent > 0) {
    const n = copies.byIndex + copies.byContent;
    findings.push({
      code: 'evaluation-duplicates',
      cause: `${n} of the ${audit.nonMembers.ids?.length ?? audit.nonMembers.hashes?.length} evaluation non-members are also members (${counted(copies)}): the model saw them`,
      action: 'remove the duplicated records from the non-members (or deduplicate the dataset before splitting it)',
      numbers: { duplicates: n, byContent: copies.byContent },
    });
  }
  return findings;
}
