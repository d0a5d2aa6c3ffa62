import type { TopLevelSpec } from 'vega-lite';
import type { ExperimentResults } from '../results';

const FLOOR = 1e-5;

/** Test accuracy vs max attack advantage, one point (or curve) per defense, like the papers' trade-off figures. */
export function privacyUtilitySpec(results: ExperimentResults): TopLevelSpec {
  const values = results.rows.map((r) => ({ defense: r.defense, label: r.label, testAccuracy: r.testAccuracy, maxAdvantage: r.maxAdvantage }));
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: 'Privacy-utility trade-off (up-left is better)',
    width: 420,
    height: 300,
    data: { values },
    layer: [
      { mark: { type: 'line', point: false, opacity: 0.5 }, encoding: { x: { field: 'maxAdvantage', type: 'quantitative', title: 'max attack advantage (TPR − FPR)', scale: { zero: false, padding: 24 } }, y: { field: 'testAccuracy', type: 'quantitative', title: 'test accuracy', scale: { zero: false, padding: 24 } }, color: { field: 'defense', type: 'nominal' }, order: { field: 'maxAdvantage' } } },
      { mark: { type: 'point', filled: true, size: 80 }, encoding: { x: { field: 'maxAdvantage', type: 'quantitative' }, y: { field: 'testAccuracy', type: 'quantitative' }, color: { field: 'defense', type: 'nominal' }, tooltip: [{ field: 'label' }] } },
      { mark: { type: 'text', dx: 6, align: 'left', fontSize: 10 }, encoding: { x: { field: 'maxAdvantage', type: 'quantitative' }, y: { field: 'testAccuracy', type: 'quantitative' }, text: { field: 'label' } } },
    ],
  } as TopLevelSpec;
}

/** Log-log ROC curves of one attack, a line per defense (FPR and TPR floored at 1e-5 for the log scale). */
export function rocSpec(results: ExperimentResults, attack: string): TopLevelSpec {
  const values: Array<{ label: string; fpr: number; tpr: number }> = [];
  for (const row of results.rows) {
    const a = row.attacks.find((x) => x.attack === attack);
    if (a === undefined) continue;
    a.roc.fpr.forEach((f, i) => values.push({ label: row.label, fpr: Math.max(FLOOR, f), tpr: Math.max(FLOOR, a.roc.tpr[i]!) }));
  }
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: `ROC, ${attack} attack (log-log)`,
    width: 300,
    height: 300,
    data: { values },
    layer: [
      { data: { values: [{ x: FLOOR, y: FLOOR }, { x: 1, y: 1 }] }, mark: { type: 'line', strokeDash: [4, 4], color: '#999' }, encoding: { x: { field: 'x', type: 'quantitative' }, y: { field: 'y', type: 'quantitative' } } },
      { mark: { type: 'line', interpolate: 'step-after' }, encoding: { x: { field: 'fpr', type: 'quantitative', scale: { type: 'log', domain: [FLOOR, 1] }, title: 'FPR' }, y: { field: 'tpr', type: 'quantitative', scale: { type: 'log', domain: [FLOOR, 1] }, title: 'TPR' }, color: { field: 'label', type: 'nominal', title: 'defense' }, order: { field: 'fpr' } } },
    ],
  } as TopLevelSpec;
}

/** Member vs non-member loss histograms of the target model, a panel per defense. */
export function lossHistogramSpec(results: ExperimentResults): TopLevelSpec {
  const values: Array<{ label: string; loss: number; set: string; fraction: number }> = [];
  for (const row of results.rows) {
    const { edges, members, nonMembers } = row.lossHistogram;
    const m = members.reduce((a, b) => a + b, 0) || 1;
    const n = nonMembers.reduce((a, b) => a + b, 0) || 1;
    members.forEach((c, i) => values.push({ label: row.label, loss: (edges[i]! + edges[i + 1]!) / 2, set: 'members', fraction: c / m }));
    nonMembers.forEach((c, i) => values.push({ label: row.label, loss: (edges[i]! + edges[i + 1]!) / 2, set: 'non-members', fraction: c / n }));
  }
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: 'Per-example loss of the target model',
    data: { values },
    facet: { field: 'label', type: 'nominal', title: null },
    columns: 3,
    spec: {
      width: 220,
      height: 140,
      mark: { type: 'bar', opacity: 0.6 },
      encoding: { x: { field: 'loss', type: 'quantitative', bin: false, title: 'cross-entropy loss' }, y: { field: 'fraction', type: 'quantitative', stack: null, title: 'fraction' }, color: { field: 'set', type: 'nominal' } },
    },
  } as TopLevelSpec;
}
