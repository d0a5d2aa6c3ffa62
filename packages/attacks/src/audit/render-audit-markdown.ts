import type { ConfidenceInterval } from '@mia/metrics';
import type { AuditReportData } from './audit-report';
import { strongestAttack } from './record-exposure';
import { baselineSentence } from '../doctor/blind-baseline-report';
import { AUDIT_FINDING_CODES } from '../doctor/audit-finding';

/** `12.3 %` (internal). */
export const percent = (v: number, digits = 1): string => (Number.isFinite(v) ? `${(100 * v).toFixed(digits)} %` : 'n/a');
/** `0.612 [0.580, 0.644]` (internal). */
export const withInterval = (c: ConfidenceInterval, format: (v: number) => string = (v) => v.toFixed(3)): string =>
  `${format(c.estimate)} [${format(c.lower)}, ${format(c.upper)}]`;
/** `TPR@0.1 %` (internal). */
export const fprLabel = (fpr: number): string => `TPR@${+(100 * fpr).toPrecision(3)} %`;

/** The rows every renderer shows: a header and one row of strings per attack (internal). */
export function attackTable(report: AuditReportData): { header: string[]; rows: string[][] } {
  const fprs = report.attacks[0]?.tprAtFpr.map((t) => t.fpr) ?? [];
  const header = ['attack', 'advantage', 'AUC', ...fprs.map(fprLabel), `ε ≥ (δ = ${report.delta})`];
  const rows = report.attacks.map((a) => [
    a.name,
    withInterval(a.advantage, (v) => percent(v)),
    withInterval(a.auc),
    ...a.tprAtFpr.map((t) => withInterval(t.tpr, (v) => percent(v, 2))),
    a.epsilon.epsilon.toFixed(2),
  ]);
  return { header, rows };
}

/** The leakage lines of the headline: highest advantage, strongest attack at low FPR, ε bound (internal). */
function leakageLines(report: AuditReportData): string[] {
  const best = report.attacks.reduce((b, a) => (a.advantage.estimate > b.advantage.estimate ? a : b));
  const eps = report.attacks.reduce((b, a) => (a.epsilon.epsilon > b.epsilon.epsilon ? a : b));
  const strongest = strongestAttack(report.attacks);
  const low = [...strongest.tprAtFpr].filter((t) => t.fpr > 0).sort((x, y) => x.fpr - y.fpr)[0];
  const c = percent(report.confidence, 0);
  return [
    `Highest advantage: ${best.name}, ${percent(best.advantage.estimate)} (${c} interval ${percent(best.advantage.lower)} – ${percent(best.advantage.upper)}).`,
    low === undefined
      ? `Strongest attack at low FPR: ${strongest.name}.`
      : `Strongest attack at low FPR: ${strongest.name}, ${percent(low.tpr.estimate, 2)} TPR at ${percent(low.fpr, 2)} FPR (upper bound ${percent(low.tpr.upper, 2)}).`,
    `Any (ε, δ = ${report.delta})-DP guarantee of this model would need ε ≥ ${eps.epsilon.epsilon.toFixed(2)} (${eps.name}, ${c} confidence).`,
  ];
}

/**
 * A short "what it means" paragraph (internal): first, when the audit has validity findings, that
 * its numbers cannot be trusted; then the leakage, or, when the best attack does not beat the blind
 * baseline beyond noise, that the audit shows no leakage (with the numbers) instead.
 */
export function summaryLines(report: AuditReportData): string[] {
  const validity = report.validity;
  const comparison = validity?.baseline.comparisons[0];
  const invalid =
    validity === undefined || validity.findings.length === 0
      ? []
      : [
          `Audit not valid: ${validity.findings.length} finding${validity.findings.length === 1 ? '' : 's'} (${[...new Set(validity.findings.map((f) => f.code))].join(', ')}); the numbers below cannot be trusted until they are fixed (see "Audit validity").`,
        ];
  if (validity === undefined || comparison === undefined) return [...invalid, ...leakageLines(report)];
  const sentence = baselineSentence(validity.baseline, comparison);
  if (!comparison.beatsBaseline) return [...invalid, sentence, 'The attack numbers below are what the attacks measure; they do not show that the model leaks.'];
  return [...invalid, ...leakageLines(report), sentence];
}

/** The "Audit validity" section's lines (internal): the blind baseline, every finding with what to do, the notes. */
export function validityLines(report: AuditReportData): string[] {
  const validity = report.validity;
  if (validity === undefined) return [];
  const b = validity.baseline;
  return [
    `Blind baseline: ${b.method}, reading ${b.features}: AUC ${withInterval(b.auc)} (${percent(b.auc.confidence, 0)} DeLong interval, ${b.folds} folds).`,
    ...(validity.findings.length === 0
      ? ['No validity finding.']
      : validity.findings.map((f) => `**${f.code}** (${AUDIT_FINDING_CODES[f.code].title}): ${f.cause}. What to do: ${f.action}.`)),
    ...validity.notes,
  ];
}

/** Markdown rendering of an audit report (internal; `AuditReport.toMarkdown`). */
export function renderAuditMarkdown(report: AuditReportData): string {
  const { header, rows } = attackTable(report);
  const strongest = strongestAttack(report.attacks);
  const lines = [
    '# Membership-inference audit',
    '',
    `${report.numMembers} members, ${report.numNonMembers} non-members, ${report.numClasses} classes; intervals at ${percent(report.confidence, 0)} confidence. Scores: higher = more likely member; advantage = TPR − FPR.`,
    '',
    ...summaryLines(report).map((l) => `- ${l}`),
    '',
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    '',
    `## Per class (${strongest.name})`,
    '',
    '| class | members | non-members | AUC | advantage |',
    '|---|---|---|---|---|',
    ...strongest.perClass.map(
      (k) => `| ${k.label} | ${k.numMembers} | ${k.numNonMembers} | ${Number.isNaN(k.auc) ? 'n/a' : k.auc.toFixed(3)} | ${percent(k.advantage)} |`,
    ),
    '',
    `## Most exposed records (${report.exposure.attack})`,
    '',
    '| rank | index | label | score | FPR to flag | loss |',
    '|---|---|---|---|---|---|',
    ...report.exposure.top.map(
      (r) => `| ${r.rank} | ${r.index} | ${r.label} | ${r.score.toPrecision(4)} | ${percent(r.fprToFlag, 2)} | ${r.loss.toPrecision(4)} |`,
    ),
  ];
  const validity = validityLines(report);
  if (validity.length > 0) lines.push('', '## Audit validity', '', ...validity.map((l) => `- ${l}`));
  if (report.notes.length > 0) lines.push('', '## Notes', '', ...report.notes.map((n) => `- ${n}`));
  return `${lines.join('\n')}\n`;
}
