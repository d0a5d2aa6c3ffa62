import type { DefenseRow, ExperimentResults } from '../run/results';
import { EXPOSURE_CSV } from './exposure-csv';
import { escapeHtml as escape, escapeMarkdownInline, escapeMarkdownParagraph } from './escape';
import { markdownTable } from './markdown-table';

/** The explanation above the per-record tables. */
export const EXPOSURE_NOTE = `The target's training records that its strongest attack (the highest TPR at 0.1 % FPR, then the highest AUC) scores highest: their index in the dataset, true label, the attack's membership score (higher = more likely member), the false-positive rate an attacker accepts to flag each (the fraction of non-members scoring at least as high) and the target's loss on it. Records flagged at an FPR near 0 are at risk even when the average advantage is small. Every record's score under every attack is in ${EXPOSURE_CSV} beside this report (columns: row, set, index, label, loss, score_<attack> per attack, rank, fpr_to_flag).`;

/** Records listed per row in the reports (`results.json` keeps more, the CSV all). */
const LISTED = 10;

const pct = (v: number) => (Number.isFinite(v) ? (100 * v).toFixed(2) : 'n/a');
const short = (v: number) => (Number.isFinite(v) ? String(+v.toPrecision(4)) : String(v));

/** One row's part of the section: a caption and, when the row has an exposure, its table of the most exposed records. */
export interface ExposureRowSection {
  readonly label: string;
  readonly caption: string;
  readonly table?: { readonly header: string[]; readonly rows: string[][] };
}

function rowSection(row: DefenseRow): ExposureRowSection {
  const e = row.exposure;
  if (e === undefined) {
    const why = row.attacks.length === 0 ? 'no attack ran against this target' : 'not computed (the warnings say why)';
    return { label: row.label, caption: `Per-record exposure: ${why}.` };
  }
  return {
    label: row.label,
    caption: `Ranked by the ${e.attack} attack (${e.numMembers} members, ${e.numNonMembers} non-members); the ${Math.min(LISTED, e.top.length)} most exposed members:`,
    table: {
      header: ['rank', 'dataset index', 'label', 'score', 'FPR to flag %', 'loss'],
      rows: e.top.slice(0, LISTED).map((r) => [String(r.rank), String(r.index), String(r.label), short(r.score), pct(r.fprToFlag), short(r.loss)]),
    },
  };
}

/** Whether any row of the run recorded its per-record exposure (older results and runs without attacks did not). */
export const hasExposure = (results: ExperimentResults): boolean => results.rows.some((r) => r.exposure !== undefined);

/** The "Most exposed records" section of the reports, one part per row; empty when no row recorded an exposure. */
export function exposureSections(results: ExperimentResults): ExposureRowSection[] {
  return hasExposure(results) ? results.rows.map(rowSection) : [];
}

/** The section in `report.md`, as lines (none when no row recorded an exposure). */
export function exposureMarkdown(results: ExperimentResults): string[] {
  const sections = exposureSections(results);
  if (sections.length === 0) return [];
  return [
    '## Most exposed records',
    '',
    escapeMarkdownParagraph(`${EXPOSURE_NOTE} The member and non-member score distributions are plotted in report.html.`),
    '',
    ...sections.flatMap((s) => [
      `### ${escapeMarkdownInline(s.label)}`,
      '',
      escapeMarkdownInline(s.caption),
      '',
      ...(s.table === undefined ? [] : [markdownTable(s.table.header, s.table.rows), '']),
    ]),
  ];
}

/** The section in `report.html` (empty when no row recorded an exposure). */
export function exposureHtml(results: ExperimentResults): string {
  const sections = exposureSections(results);
  if (sections.length === 0) return '';
  const table = ({ header, rows }: { header: string[]; rows: string[][] }) =>
    `<table><thead><tr>${header.map((h) => `<th>${escape(h)}</th>`).join('')}</tr></thead><tbody>${rows
      .map((r) => `<tr>${r.map((c) => `<td>${escape(c)}</td>`).join('')}</tr>`)
      .join('')}</tbody></table>`;
  const parts = sections.map(
    (s) => `<section class="exposure"><h3>${escape(s.label)}</h3><p>${escape(s.caption)}</p>${s.table === undefined ? '' : table(s.table)}</section>`,
  );
  return `<h2 id="exposure">Most exposed records</h2>\n<p class="explain">${escape(EXPOSURE_NOTE)}</p>\n${parts.join('\n')}`;
}
