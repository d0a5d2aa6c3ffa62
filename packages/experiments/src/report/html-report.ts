import type { ExperimentResults } from '../results';
import { mainTable, markdownReport } from './markdown-report';
import { lossHistogramSpec, privacyUtilitySpec, rocSpec } from './plots';
import { renderSvg } from './render-svg';

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * `report.html`: one self-contained page (inline CSS and SVG, no script, nothing fetched) with the
 * tables next to the paper's values, the privacy-utility plot, log-log ROC curves and loss histograms.
 */
export async function htmlReport(results: ExperimentResults): Promise<string> {
  const { header, rows } = mainTable(results);
  const attacks = [...new Set(results.rows.flatMap((r) => r.attacks.map((a) => a.attack)))];
  const figures: Array<{ id: string; title: string; svg: string }> = [
    { id: 'privacy-utility', title: 'Privacy-utility trade-off', svg: await renderSvg(privacyUtilitySpec(results)) },
    ...(await Promise.all(attacks.map(async (a) => ({ id: `roc-${a}`, title: `ROC (${a})`, svg: await renderSvg(rocSpec(results, a)) })))),
    { id: 'loss-histograms', title: 'Loss histograms', svg: await renderSvg(lossHistogramSpec(results)) },
  ];
  const notes = results.notes.map((n) => `<p class="note"><strong>Note:</strong> ${escape(n)}</p>`).join('\n');
  const tableHtml = `<table><thead><tr>${header.map((h) => `<th>${escape(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((c) => `<td>${escape(c)}</td>`).join('')}</tr>`)
    .join('')}</tbody></table>`;
  const details = escape(markdownReport(results));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(results.config.name)} — @mia report</title>
<style>
body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:1100px;color:#222}
table{border-collapse:collapse;margin:1rem 0;font-size:.9rem}th,td{border:1px solid #ccc;padding:.3rem .5rem;text-align:right}
th:first-child,td:first-child{text-align:left}.note{background:#fff4d6;padding:.5rem;border-left:4px solid #e0a800}
figure{display:inline-block;margin:1rem;vertical-align:top}pre{background:#f6f6f6;padding:1rem;overflow:auto;font-size:.8rem}
</style></head><body>
<h1>${escape(results.config.name)}</h1>
<p>${escape(results.config.description)}</p>
${notes}
<p>Dataset <strong>${escape(results.dataset.name)}</strong> (${results.dataset.source === 'real' ? 'real data' : 'STAND-IN'}), model ${escape(results.config.model.name)}, scale ${escape(results.config.scale)}, seed ${results.config.seed}, backend ${escape(results.backend)}.</p>
<h2>Results</h2>
${tableHtml}
<h2>Figures</h2>
${figures.map((f) => `<figure id="${f.id}" data-figure="${f.id}"><figcaption>${escape(f.title)}</figcaption>${f.svg}</figure>`).join('\n')}
<h2>Full report</h2>
<pre>${details}</pre>
</body></html>
`;
}
