import type { AuditReportData } from './audit-report';
import { strongestAttack } from './record-exposure';
import { attackTable, percent, summaryLines, validityLines } from './render-audit-markdown';

const escape = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const table = (header: readonly string[], rows: readonly (readonly string[])[]): string =>
  `<table><thead><tr>${header.map((h) => `<th>${escape(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((c) => `<td>${escape(c)}</td>`).join('')}</tr>`)
    .join('')}</tbody></table>`;

/** Overlaid histograms of member and non-member scores as inline SVG (internal). */
export function scoreHistogramSvg(members: Float64Array, nonMembers: Float64Array, bins = 30): string {
  let [lo, hi] = [Infinity, -Infinity];
  for (const values of [members, nonMembers]) for (const v of values) if (Number.isFinite(v)) [lo, hi] = [Math.min(lo, v), Math.max(hi, v)];
  if (lo > hi) [lo, hi] = [0, 1];
  const width = hi > lo ? (hi - lo) / bins : 1;
  const counts = (values: Float64Array) => {
    const out = new Array<number>(bins).fill(0);
    for (const v of values) if (Number.isFinite(v)) out[Math.min(bins - 1, Math.floor((v - lo) / width))]! += 1 / values.length;
    return out;
  };
  const [m, n] = [counts(members), counts(nonMembers)];
  const top = Math.max(...m, ...n, 1e-12); // bins values, not records: a short spread
  const [w, h] = [480, 160];
  const bars = (values: number[], color: string) =>
    values
      .map(
        (v, i) =>
          `<rect x="${((i * w) / bins).toFixed(1)}" y="${(h - (v / top) * h).toFixed(1)}" width="${(w / bins).toFixed(1)}" height="${((v / top) * h).toFixed(1)}" fill="${color}" fill-opacity="0.5"/>`,
      )
      .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h + 20}" width="${w}" height="${h + 20}" role="img" aria-label="score histogram">${bars(n, '#1f77b4')}${bars(m, '#d62728')}<text x="0" y="${h + 15}" font-size="11">${lo.toPrecision(3)}</text><text x="${w}" y="${h + 15}" font-size="11" text-anchor="end">${hi.toPrecision(3)}</text></svg>`;
}

/** The "Audit validity" section: Markdown `**code**` becomes bold, everything else escaped (internal). */
function validityHtml(lines: readonly string[]): string {
  if (lines.length === 0) return '';
  const item = (line: string) => escape(line).replace(/^\*\*([a-z-]+)\*\*/, '<strong>$1</strong>');
  return `<h2>Audit validity</h2><ul>${lines.map((l) => `<li>${item(l)}</li>`).join('')}</ul>`;
}

/** Self-contained HTML rendering of an audit report (internal; `AuditReport.toHTML`). */
export function renderAuditHtml(report: AuditReportData): string {
  const { header, rows } = attackTable(report);
  const strongest = strongestAttack(report.attacks);
  const perClass = strongest.perClass.map((k) => [
    String(k.label),
    String(k.numMembers),
    String(k.numNonMembers),
    Number.isNaN(k.auc) ? 'n/a' : k.auc.toFixed(3),
    percent(k.advantage),
  ]);
  const exposed = report.exposure.top.map((r) => [
    String(r.rank),
    String(r.index),
    String(r.label),
    r.score.toPrecision(4),
    percent(r.fprToFlag, 2),
    r.loss.toPrecision(4),
  ]);
  const body = [
    '<h1>Membership-inference audit</h1>',
    `<p>${report.numMembers} members, ${report.numNonMembers} non-members, ${report.numClasses} classes; intervals at ${percent(report.confidence, 0)} confidence. Scores: higher = more likely member; advantage = TPR − FPR.</p>`,
    `<ul>${summaryLines(report)
      .map((l) => `<li>${escape(l)}</li>`)
      .join('')}</ul>`,
    table(header, rows),
    `<h2>Score distributions (${escape(strongest.name)})</h2>`,
    `<p><span style="color:#d62728">■ members</span> <span style="color:#1f77b4">■ non-members</span></p>`,
    scoreHistogramSvg(strongest.memberScores, strongest.nonMemberScores),
    `<h2>Per class (${escape(strongest.name)})</h2>`,
    table(['class', 'members', 'non-members', 'AUC', 'advantage'], perClass),
    `<h2>Most exposed records (${escape(report.exposure.attack)})</h2>`,
    table(['rank', 'index', 'label', 'score', 'FPR to flag', 'loss'], exposed),
    validityHtml(validityLines(report)),
    report.notes.length === 0 ? '' : `<h2>Notes</h2><ul>${report.notes.map((n) => `<li>${escape(n)}</li>`).join('')}</ul>`,
  ];
  const style =
    'body{font-family:system-ui,sans-serif;max-width:960px;margin:2em auto;padding:0 1em;color:#222}table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #ccc;padding:4px 8px;text-align:right}th:first-child,td:first-child{text-align:left}';
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Membership-inference audit</title><style>${style}</style></head><body>${body.join('\n')}</body></html>\n`;
}
