import type { ExperimentResults } from '../run/results';
import { exposureHtml, hasExposure } from './exposure-report';
import { scoreHistogramSpec } from './exposure-plots';
import { whatItMeans } from './what-it-means';
import { validityItems } from './validity-report';
import { attackTable, EPSILON_NOTE, mainTable, privacyTable, reproduceCommands, RESULTS_NOTE, TPR_AT_FPR_NOTE, type ReportOptions } from './markdown-report';
import { lossHistogramSpec, privacyUtilitySpec, rocSpec } from './plots';
import { renderSvg } from './render-svg';
import { attacksRocSpec } from './attack-roc';
import { referencesLines } from './references-report';
import { escapeHtml as escape } from './escape';

function tableHtml({ header, rows }: { header: string[]; rows: string[][] }): string {
  return `<table><thead><tr>${header.map((h) => `<th>${escape(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((c) => `<td>${escape(c)}</td>`).join('')}</tr>`)
    .join('')}</tbody></table>`;
}

/**
 * `report.html`: one self-contained page (inline CSS and SVG, no script, nothing fetched) with the
 * tables next to the paper's values, the privacy-utility plot, log-log ROC curves, loss and score
 * histograms, each defense's attack table, the most exposed records and how to reproduce the run —
 * the same content as `report.md`, as HTML.
 */
export async function htmlReport(results: ExperimentResults, options: ReportOptions = {}): Promise<string> {
  const attacks = [...new Set(results.rows.flatMap((r) => r.attacks.map((a) => a.attack)))];
  const figures: Array<{ id: string; title: string; svg: string }> = [
    { id: 'privacy-utility', title: 'Privacy-utility trade-off', svg: await renderSvg(privacyUtilitySpec(results)) },
    ...(await Promise.all(attacks.map(async (a) => ({ id: `roc-${a}`, title: `ROC (${a})`, svg: await renderSvg(rocSpec(results, a)) })))),
    { id: 'loss-histograms', title: 'Loss histograms', svg: await renderSvg(lossHistogramSpec(results)) },
    ...(hasExposure(results)
      ? [{ id: 'score-distributions', title: 'Membership score distributions', svg: await renderSvg(scoreHistogramSpec(results)) }]
      : []),
  ];
  const notes = results.notes.map((n) => `<p class="note"><strong>Note:</strong> ${escape(n)}</p>`);
  const warnings = (results.warnings ?? []).map((w) => `<p class="warning"><strong>Warning:</strong> ${escape(w)}</p>`);
  const perDefense = results.rows.map((r) => `<section class="attacks"><h3>${escape(r.label)}</h3>${tableHtml(attackTable(r))}</section>`);
  // Runs with reference models: the papers' view, every attack of a row on one log-log ROC.
  const referenceFigures =
    results.references === undefined
      ? []
      : await Promise.all(
          results.rows.map(async (r, i) => `<figure id="roc-attacks-${i + 1}" data-figure="roc-attacks">${await renderSvg(attacksRocSpec(r))}</figure>`),
        );
  const referencesSection =
    results.references === undefined
      ? ''
      : `<section data-section="reference-models"><h2>Reference models</h2><p>${escape(referencesLines(results).join(' '))}</p>${referenceFigures.join('\n')}</section>`;
  const versions = Object.entries(results.versions)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  const meaning = whatItMeans(results);
  const dp = privacyTable(results);
  const epsilonNote = results.rows.some((r) => r.empiricalEpsilon !== undefined || r.privacy !== undefined)
    ? `<p class="explain">${escape(EPSILON_NOTE)}</p>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(results.config.name)} — @mia report</title>
<style>
body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:1100px;color:#222}
table{border-collapse:collapse;margin:1rem 0;font-size:.9rem}th,td{border:1px solid #ccc;padding:.3rem .5rem;text-align:right}
th:first-child,td:first-child{text-align:left}.note{background:#fff4d6;padding:.5rem;border-left:4px solid #e0a800}
.warning{background:#fde2e1;padding:.5rem;border-left:4px solid #c62828}.explain{font-size:.85rem;color:#555;max-width:80ch}
figure{display:inline-block;margin:1rem;vertical-align:top}pre{background:#f6f6f6;padding:1rem;overflow:auto;font-size:.8rem}
</style></head><body>
<h1>${escape(results.config.name)}</h1>
<p>${escape(results.config.description)}</p>
${meaning.length === 0 ? '' : `<section class="meaning" data-section="what-it-means"><h2>What it means</h2><p>${escape(meaning.join(' '))}</p></section>`}
${
  validityItems(results).length === 0
    ? ''
    : `<section data-section="audit-validity"><h2>Audit validity</h2><ul>${validityItems(results)
        .map((item) => `<li>${escape(item)}</li>`)
        .join('')}</ul></section>`
}
${[...notes, ...warnings].join('\n')}
<p>Dataset <strong>${escape(results.dataset.name)}</strong> (${results.dataset.source === 'real' ? 'real data' : 'STAND-IN'}), model ${escape(results.config.model.name)}, ${results.config.training.epochs} epochs, scale ${escape(results.config.scale)}, seed ${results.config.seed}, backend ${escape(results.backend)}.</p>
<h2>Results</h2>
<p class="explain">${escape(RESULTS_NOTE)}</p>
${tableHtml(mainTable(results))}
${epsilonNote}
${dp === undefined ? '' : `<section data-section="differential-privacy"><h2>Differential privacy</h2>${tableHtml(dp)}</section>`}
<h2>Figures</h2>
${figures.map((f) => `<figure id="${escape(f.id)}" data-figure="${escape(f.id)}"><figcaption>${escape(f.title)}</figcaption>${f.svg}</figure>`).join('\n')}
<h2>Attacks per defense</h2>
<p class="explain">${escape(TPR_AT_FPR_NOTE)}</p>
${perDefense.join('\n')}
${referencesSection}
${exposureHtml(results)}
<h2>Reproduce</h2>
<p>With <code>pnpm mia</code> in the repository, or <code>npx mia</code> where <code>@mia/experiments</code> is installed:</p>
<pre><code>${escape(reproduceCommands(results, options.configPath).join('\n'))}</code></pre>
<p class="explain">Versions: ${escape(versions)}. Started ${escape(results.startedAt)}, ${results.seconds.toFixed(1)} s.</p>
</body></html>
`;
}
