import { join } from 'node:path';
import { renderSvg } from '../report/render-svg';
import { writeOutputSet } from '../report/output-set';
import { escapeHtml as escape } from '../report/escape';
import { formatValue } from './table-helpers';
import { isNotRun, type Claim, type ReproductionResult, type ReproductionTable, type TableCell } from './types';
import { reproductionFromStored, storedReproduction, type StoredReproductionResult } from './stored-reproduction';
import { claimSummary } from './verdicts';

function cellText(cell: TableCell, table: ReproductionTable): string {
  const f = (v: number) => formatValue(v, table.format);
  const mean = cell.ours === undefined ? 'not run' : cell.std === undefined ? f(cell.ours) : `${f(cell.ours)} ± ${f(cell.std)}`;
  // With several training seeds: the mean, then each seed's value (docs/protocol.md §5.2).
  const ours = cell.perSeed === undefined || cell.ours === undefined ? mean : `${mean} [seeds: ${cell.perSeed.map(f).join(', ')}]`;
  if (cell.paper === undefined) return ours;
  const paper = cell.paperStd === undefined ? f(cell.paper) : `${f(cell.paper)} ± ${f(cell.paperStd)}`;
  return `${ours} (paper ${paper})`;
}

/**
 * A reproduced table as Markdown: "ours (paper p)" per cell, with footnotes for cells not run. With
 * `shown` (the footnotes of the tables above it), a reason given above is not repeated; the ones
 * given here are added to it.
 */
export function tableMarkdown(table: ReproductionTable, shown?: Set<string>): string {
  const header = `| | ${table.columns.join(' | ')} |`;
  const rule = `|---|${table.columns.map(() => '---').join('|')}|`;
  const body = table.rows.map((r) => `| ${r.label} | ${r.cells.map((c) => cellText(c, table)).join(' | ')} |`);
  const reasons = [...new Set(table.rows.flatMap((r) => r.cells.flatMap((c) => (c.notRun === undefined ? [] : [c.notRun]))))].filter(
    (r) => shown?.has(r) !== true,
  );
  for (const r of reasons) shown?.add(r);
  const unit = table.format === 'pct' ? ' Values in %.' : '';
  return [
    `### ${table.title}`,
    '',
    header,
    rule,
    ...body,
    '',
    ...(table.caption === undefined ? [] : [`${table.caption}${unit}`, '']),
    ...reasons.map((r) => `- ${r}`),
    ...(reasons.length > 0 ? [''] : []),
  ].join('\n');
}

/**
 * Tables one after the other, each reason for a cell not run given once: under the first table that
 * has it (`shown` collects them, e.g. for the claims below).
 */
export function tablesMarkdown(tables: readonly ReproductionTable[], shown: Set<string> = new Set()): string {
  return tables.map((t) => tableMarkdown(t, shown)).join('\n');
}

/**
 * The line under a claim's verdict that shows its sub-verdicts, from the structured decisions
 * (verdict rules ≥ 3): "partial: holds on CIFAR-10, Purchase; not run on CIFAR-100, SVHN",
 * "does not hold: fails on CIFAR-10 (Δ −3.1 ± 0.9)". Undefined for a claim without columns.
 */
export function subVerdicts(claim: Claim): string | undefined {
  return claim.columns === undefined || claim.columns.length === 0 ? undefined : claimSummary(claim);
}

/**
 * A claim's evidence as shown under its sub-verdicts: without the sub-verdicts it starts with (the
 * evidence of a claim over columns repeats them), so the reports and the terminal say them once.
 */
export function evidenceBelowSubVerdicts(claim: Claim): string {
  if (claim.columns === undefined || claim.columns.length === 0) return claim.evidence;
  const summary = claimSummary(claim);
  return claim.evidence.startsWith(summary) ? claim.evidence.slice(summary.length).replace(/^[.;:]?\s*/, '') : claim.evidence;
}

/** Replaces every occurrence of a long not-run reason after the first one (across calls sharing `shown`) by a pointer to it. */
function sayReasonsOnce(text: string, reasons: readonly string[], shown: Set<string>): string {
  let out = text;
  for (const reason of reasons) {
    const first = shown.has(reason) ? -1 : out.indexOf(reason);
    if (first >= 0) shown.add(reason);
    const keep = first < 0 ? '' : out.slice(0, first + reason.length);
    out = keep + out.slice(keep.length).split(reason).join('not run (the reason is given above)');
  }
  return out;
}

/**
 * The claims section as Markdown: per claim its verdict, statement, the sub-verdicts of its columns
 * (when it has them) and its evidence. Claims decided before verdict rules 3 (evidence text only)
 * are marked: a "partial" there may include columns that did not hold. Each reason for a column not
 * run is spelled out once (not again when `shown`, from the tables above, has it), and a claim whose
 * evidence is that of a claim above points back to it.
 */
export function claimsMarkdown(result: Pick<ReproductionResult, 'claims'> & { readonly verdictRules?: number }, shown: Set<string> = new Set()): string {
  const mark = {
    holds: '✅ holds',
    'does not hold': '❌ does not hold',
    'within noise': '〰️ within noise',
    'not testable': '⚪ not testable',
    'not evaluated': '— not evaluated',
    partial: '◐ partial',
  } as const;
  const old = (result.verdictRules ?? 0) < 3;
  const evidenceOf = new Map<string, string>();
  const statements = result.claims.map((c) => c.statement);
  return result.claims
    .map((c) => {
      const sub = subVerdicts(c);
      const oldMark = old && c.verdict === 'partial' ? ' (decided under the old rules: the columns may include failures)' : '';
      const reasons = [
        ...new Set(
          (c.columns ?? []).flatMap((col) => (col.verdict === 'not evaluated' && col.reason !== undefined && col.reason.length > 80 ? [col.reason] : [])),
        ),
      ];
      const evidence = evidenceBelowSubVerdicts(c);
      const earlier = evidenceOf.get(evidence);
      if (earlier === undefined) evidenceOf.set(evidence, c.statement);
      const text = earlier === undefined ? sayReasonsOnce(evidence, reasons, shown) : `The evidence of “${shortStatement(earlier, statements)}” above.`;
      return `- **${mark[c.verdict]}**${oldMark} — ${c.statement}\n  ${sub === undefined ? '' : `_${sub}_\n  `}${text}`;
    })
    .join('\n');
}

/** The label a claim's statement starts with ("Fig. 1b: …" → "Fig. 1b"), if any. */
function statementLabel(statement: string): string | undefined {
  return /^((?:Fig\.|Table|Tab\.|Eq\.|§)\s*[\w.–-]+(?:\s*\([^)]*\))?):\s/.exec(statement)?.[1];
}

/**
 * A claim's statement as a back-reference among `statements` (the reproduction's claims): its label
 * where it starts with one that no other claim starts with ("Fig. 1b: …" → "Fig. 1b"), else the
 * statement itself, cut at a word within 80 characters.
 */
export function shortStatement(statement: string, statements: readonly string[]): string {
  const label = statementLabel(statement);
  if (label !== undefined && statements.filter((s) => statementLabel(s) === label).length === 1) return label;
  if (statement.length <= 80) return statement;
  const cut = statement.slice(0, 79);
  const space = cut.lastIndexOf(' ');
  return `${(space >= 40 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** `report.md` of a reproduction: tables (ours beside the paper's), claims, notes, runs. */
export function reproductionMarkdown(result: ReproductionResult): string {
  // Each reason for a cell or column not run is spelled out once, under the first table that has it.
  const shown = new Set<string>();
  // Each reason for not running (what to download, where to point --data-dir) is spelled out once.
  const firstWithReason = new Map<string, string>();
  const runs = Object.entries(result.runs).map(([id, r]) => {
    if (!isNotRun(r))
      return `- \`${id}\`: ${r.dataset} (${r.source === 'real' ? 'real data' : 'STAND-IN'}), ${r.seconds.toFixed(0)} s — [report](runs/${id}/report.md)`;
    const first = firstWithReason.get(r.notRun);
    if (first !== undefined) return `- \`${id}\`: not run (as \`${first}\` above)`;
    firstWithReason.set(r.notRun, id);
    return `- \`${id}\`: ${r.notRun}`;
  });
  return [
    `# ${result.title}`,
    '',
    `Reproduction \`${result.name}\` of ${result.source}, scale \`${result.scale}\`, backend ${result.backend}, ${result.seconds.toFixed(0)} s.`,
    ...(result.description === '' ? [] : ['', result.description]),
    '',
    ...result.notes.map((n) => `> **Note:** ${n}\n`),
    '## Tables',
    '',
    "Each cell: our value (paper's value). Cells the paper does not report show ours only.",
    '',
    tablesMarkdown(result.tables, shown),
    '## Claims',
    '',
    (result.verdictRules ?? 0) >= 4
      ? "A comparison holds (or does not) only when its margin exceeds the critical value times the standard error of the difference: 2 SE for a large-sample SE, a Student-t quantile with Welch–Satterthwaite degrees of freedom when the SE rests on a few training seeds, and a one-sided 2.5 % test for a non-inferiority claim (a margin such as −2 accuracy points); otherwise it is within noise. No comparison is decided on an SE over one model's parameters or points (shown, not decided). A claim over several columns (datasets, architectures, attacks) does not hold when any column does not hold — a failure counts only after Holm's step-down over the claim's comparisons at family α = 0.05 — holds only when every column holds, and is partial only when every decided column holds and the others were not run or not testable. A claim is not testable when the undefended model is not in the paper's regime (a threshold missed, or missed within 2 SE: at the edge), its attacks are saturated (every attack evaluated on it counted), a compared model collapsed or stayed far from converged, or a comparator does not lower leakage below the undefended model (by more than 2 SE) (docs/protocol.md §5.1 of the repository)."
      : (result.verdictRules ?? 0) >= 3
        ? "Decided under verdict rules 3: a comparison holds (or does not) only beyond 2 standard errors of the difference; otherwise it is within noise. A claim over several columns (datasets, architectures, attacks) does not hold when any column does not hold — a failure counts only after Holm's step-down over the claim's comparisons at family α = 0.05 — holds only when every column holds, and is partial only when every decided column holds and the others were not run or not testable. A claim is not testable when the undefended model is not in the paper's regime (each threshold beyond 2 SE), its attacks are saturated, or a compared model collapsed (docs/protocol.md §5.1 of the repository)."
        : result.verdictRules === 2
          ? 'Decided under verdict rules 2: a comparison holds (or does not) only beyond 2 standard errors of the difference; a claim over several columns was "partial" when decided on some of them, whatever those decisions were, so a partial may hide a column that did not hold (docs/protocol.md §5.1 of the repository).'
          : 'These verdicts were computed before the testability gate: strict inequalities on single seeds, no margins.',
    '',
    claimsMarkdown(result, shown),
    '',
    '## Runs',
    '',
    ...runs,
    '',
    `Reproduce: \`pnpm mia reproduce ${result.name} --scale ${result.scale}\``,
    '',
  ].join('\n');
}

function tableHtml(table: ReproductionTable): string {
  const head = `<tr><th></th>${table.columns.map((c) => `<th>${escape(c)}</th>`).join('')}</tr>`;
  const rows = table.rows
    .map(
      (r) =>
        `<tr><th>${escape(r.label)}</th>${r.cells.map((c) => `<td${c.ours === undefined ? ' class="not-run"' : ''}>${escape(cellText(c, table))}</td>`).join('')}</tr>`,
    )
    .join('');
  return `<h3>${escape(table.title)}</h3><table>${head}${rows}</table>${table.caption === undefined ? '' : `<p>${escape(table.caption)}</p>`}`;
}

/** `report.html`: self-contained (inline CSS and SVG, nothing fetched). */
export async function reproductionHtml(result: ReproductionResult): Promise<string> {
  const figures = await Promise.all(
    (result.figures ?? []).map(
      async (f) => `<figure data-figure="${escape(f.id)}"><figcaption>${escape(f.title)}</figcaption>${await renderSvg(f.spec)}</figure>`,
    ),
  );
  const claims = result.claims
    .map(
      (c) =>
        `<li class="${c.verdict.replace(/ /g, '-')}"><strong>${escape(c.verdict)}</strong> — ${escape(c.statement)}${
          subVerdicts(c) === undefined ? '' : `<br><em>${escape(subVerdicts(c)!)}</em>`
        }<br><small>${escape(evidenceBelowSubVerdicts(c))}</small></li>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(result.title)} — @mia reproduction</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:1100px;color:#222}
table{border-collapse:collapse;margin:1rem 0;font-size:.9rem}th,td{border:1px solid #ccc;padding:.3rem .5rem;text-align:right}
.not-run{color:#999}.note{background:#fff4d6;padding:.5rem;border-left:4px solid #e0a800}.holds{color:#0a0}.does-not-hold{color:#c00}.within-noise{color:#a60}.not-testable,.not-evaluated{color:#777}.partial{color:#06c}
figure{display:inline-block;margin:1rem;vertical-align:top}</style></head><body>
<h1>${escape(result.title)}</h1>
<p>Reproduction <code>${escape(result.name)}</code> of ${escape(result.source)}, scale <code>${result.scale}</code>, backend ${escape(result.backend)}, ${result.seconds.toFixed(0)} s.</p>
${result.notes.map((n) => `<p class="note">${escape(n)}</p>`).join('\n')}
<h2>Tables</h2>${result.tables.map(tableHtml).join('\n')}
<h2>Claims</h2><ul>${claims}</ul>
${figures.length > 0 ? `<h2>Figures</h2>${figures.join('\n')}` : ''}
</body></html>
`;
}

/**
 * Writes `report.md`, `report.html` and `reproduction.json` into `dir` as one set (`writeOutputSet`:
 * all old or all new, `reproduction.json` put in place last); reproduction.json holds the result in
 * its stored form (`storedReproduction`; read back with `reproductionFromStored`).
 */
export async function writeReproductionReport(
  input: ReproductionResult | StoredReproductionResult,
  dir: string,
): Promise<{ json: string; markdown: string; html: string }> {
  // A result read back from a reproduction.json (its undecided decisions without their kind) renders as when it was decided.
  const result = reproductionFromStored(input) as ReproductionResult;
  const paths = { json: join(dir, 'reproduction.json'), markdown: join(dir, 'report.md'), html: join(dir, 'report.html') };
  await writeOutputSet(dir, [
    { name: 'report.md', content: reproductionMarkdown(result) },
    { name: 'report.html', content: await reproductionHtml(result) },
    { name: 'reproduction.json', content: `${JSON.stringify(storedReproduction(result), null, 2)}\n` },
  ]);
  return paths;
}
