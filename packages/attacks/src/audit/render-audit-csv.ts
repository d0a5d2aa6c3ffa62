import type { AuditReportData } from './audit-report';

/** A CSV field: numbers as JavaScript prints them (`Infinity`, empty for NaN), names quoted when needed (internal). */
const field = (v: string | number): string =>
  typeof v === 'number' ? (Number.isNaN(v) ? '' : String(v)) : /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;

/** CSV of every record's scores and the members' exposure (internal; `AuditReport.toCSV`). */
export function renderAuditCsv(report: AuditReportData): string {
  const header = ['set', 'index', 'label', ...report.attacks.map((a) => a.name), 'rank', 'fpr_to_flag', 'loss'];
  const lines = [header.map(field).join(',')];
  report.exposure.records.forEach((r, i) => {
    lines.push(['member', i, report.memberLabels[i]!, ...report.attacks.map((a) => a.memberScores[i]!), r.rank, r.fprToFlag, r.loss].map(field).join(','));
  });
  report.nonMemberLabels.forEach((label, i) => {
    lines.push(['non-member', i, label, ...report.attacks.map((a) => a.nonMemberScores[i]!), '', '', ''].map(field).join(','));
  });
  return `${lines.join('\n')}\n`;
}
