import type { AuditDescription, RecordSet, ReferenceAttackUse, ReferencesDescription } from './audit-description';
import type { AuditFinding } from './audit-finding';
import { overlapOf } from './check-overlap';

/**
 * Reference models per side below which a per-record σ (LiRA with `fixVariance: false`) is unstable:
 * Carlini et al. 2022 (§VI-B, and their code's advice) use one global σ below 64 models, 32 per side.
 */
export const MIN_PER_SIDE_FOR_OWN_SIGMA = 32;
/** An online attack's record is unbalanced when it is IN in fewer than this share of its references, or more than 1 minus it. */
export const MIN_IN_SHARE = 0.25;

/** The audit records (members, non-members, population) as one set, when every part is named the same way. */
function auditRecords(audit: AuditDescription, population: RecordSet | undefined): RecordSet {
  const parts = [audit.members, audit.nonMembers, ...(population === undefined ? [] : [population])];
  const ids = parts.every((p) => p.ids !== undefined) ? parts.flatMap((p) => Array.from(p.ids!)) : undefined;
  const hashes = parts.every((p) => p.hashes !== undefined) ? parts.flatMap((p) => [...p.hashes!]) : undefined;
  return { ...(ids === undefined ? {} : { ids }), ...(hashes === undefined ? {} : { hashes }) };
}

/** A reference model that trained on a record its keep row counts OUT; a population record that is a target member. */
function overlapFindings(audit: AuditDescription, refs: ReferencesDescription): AuditFinding[] {
  const findings: AuditFinding[] = [];
  const records = auditRecords(audit, refs.population);
  (refs.trainedOn ?? []).forEach((trained, k) => {
    const row = refs.keep[k];
    if (row === undefined) return;
    const out = Array.from({ length: row.length }, (_, i) => i).filter((i) => !row[i]);
    const outSet: RecordSet = {
      ...(records.ids === undefined ? {} : { ids: out.map((i) => records.ids![i]!) }),
      ...(records.hashes === undefined ? {} : { hashes: out.map((i) => records.hashes![i]!) }),
    };
    const o = overlapOf(outSet, trained);
    if (o.byIndex + o.byContent === 0) return;
    findings.push({
      code: 'reference-overlap',
      cause: `reference model ${k} trained on ${o.byIndex + o.byContent} records (${o.byIndex} by index, ${o.byContent} by content) that its keep row counts OUT`,
      action: "make each reference's keep row say exactly what it trained on (export keep.npy from the training itself), or retrain it",
      numbers: { model: k, records: o.byIndex + o.byContent, byContent: o.byContent },
    });
  });
  if (refs.population !== undefined) {
    const o = overlapOf(refs.population, audit.members);
    if (o.byIndex + o.byContent > 0)
      findings.push({
        code: 'reference-overlap',
        cause: `${o.byIndex + o.byContent} of RMIA's population records are target members (${o.byIndex} by index, ${o.byContent} by content): the population z must be non-members`,
        action: "draw the population from records neither the target nor any reference model trained on (the partition's shadow side)",
        numbers: { records: o.byIndex + o.byContent, byContent: o.byContent },
      });
  }
  return findings;
}

/** Per audit record (members and non-members), how many of the first `models` references hold it IN. */
function inCounts(keep: ReferencesDescription['keep'], models: number, records: number): Int32Array {
  const counts = new Int32Array(records);
  for (const row of keep.slice(0, models)) for (let i = 0; i < records; i++) counts[i]! += row[i] ? 1 : 0;
  return counts;
}

/** The count findings of one attack: configured for more models than there are, a per-record σ from too few, an unbalanced online split. */
function useFindings(use: ReferenceAttackUse, keep: ReferencesDescription['keep'], records: number): AuditFinding[] {
  const available = keep.length;
  if (use.models !== undefined && use.models > available)
    return [
      {
        code: 'references-too-few',
        cause: `${use.name} is configured for ${use.models} reference models, the audit has ${available}`,
        action: `train or import at least ${use.models} reference models, or set the attack's models to at most ${available}`,
        numbers: { configured: use.models, available },
      },
    ];
  const models = use.models ?? available;
  const counts = inCounts(keep, models, records);
  const minIn = counts.reduce((m, c) => Math.min(m, c), models);
  const minOut = models - counts.reduce((m, c) => Math.max(m, c), 0);
  const findings: AuditFinding[] = [];
  const ownSigma = use.method === 'lira' && use.fixVariance === false;
  const side = use.mode === 'online' ? Math.min(minIn, minOut) : minOut;
  if (ownSigma && side < MIN_PER_SIDE_FOR_OWN_SIGMA)
    findings.push({
      code: 'references-too-few',
      cause: `${use.name} fits a σ per record (fixVariance false) from ${side} ${use.mode === 'online' ? 'IN or OUT' : 'OUT'} reference models at least, fewer than ${MIN_PER_SIDE_FOR_OWN_SIGMA}: the σ is unstable and the attack weak`,
      action: `use one global σ (fixVariance: true) below ${2 * MIN_PER_SIDE_FOR_OWN_SIGMA} reference models, or train more`,
      numbers: { perSide: side, needed: MIN_PER_SIDE_FOR_OWN_SIGMA, models },
    });
  if (use.mode === 'offline' && minOut === 0)
    findings.push({
      code: 'references-too-few',
      cause: `${use.name} is offline but some records have no OUT reference model among its ${models}`,
      action: 'give every record reference models that did not train on it (keep 0)',
      numbers: { perSide: 0, models },
    });
  if (use.mode === 'online') {
    const skewed = counts.filter((c) => c < MIN_IN_SHARE * models || c > (1 - MIN_IN_SHARE) * models).length;
    if (skewed > 0)
      findings.push({
        code: 'references-unbalanced',
        cause: `${use.name} is online, but ${skewed} of ${records} records are IN in fewer than ${100 * MIN_IN_SHARE} % or more than ${100 * (1 - MIN_IN_SHARE)} % of its ${models} reference models (IN counts from ${minIn} to ${models - minOut})`,
        action: 'draw the keep masks so that every record is IN in half the models (Carlini et al.: a random half per record; or complementary pairs)',
        numbers: { skewed, records, minIn, maxIn: models - minOut, models },
      });
  }
  return findings;
}

/** Findings about the reference models: overlaps with what their keep rows say, and too few or unbalanced for the attacks that use them. */
export function checkReferences(audit: AuditDescription): AuditFinding[] {
  const refs = audit.references;
  if (refs === undefined || refs.keep.length === 0) return [];
  const records = (audit.members.ids?.length ?? audit.members.hashes?.length ?? 0) + (audit.nonMembers.ids?.length ?? audit.nonMembers.hashes?.length ?? 0);
  const span = records > 0 ? records : (refs.keep[0]?.length ?? 0);
  return [...overlapFindings(audit, refs), ...refs.attacks.flatMap((use) => useFindings(use, refs.keep, span))];
}
