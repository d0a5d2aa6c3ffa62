import type { TopLevelSpec } from 'vega-lite';
import type { ExperimentResults } from '../run/results';
import { uncertaintyDomain } from './axis-domain';

/**
 * The series a defense row belongs to in the trade-off plot: its label without the ` key=value`
 * parameters a sweep grid appends (`CCQL alpha=0.2` → `CCQL`), so a sweep is one line and the legend
 * names the defenses by the same labels as the points.
 */
export function seriesOf(label: string): string {
  return label.replace(/(\s+[^\s=]+=\S+)+$/, '') || label;
}

/**
 * Test accuracy vs max attack advantage, one point per defense row with ± 1 SE bars (the rows'
 * bootstrap SEs, `row.se`) and one line per series, like the papers' trade-off figures. The axes come
 * from {@link uncertaintyDomain} (never narrower than the noise or than 5 points); the legend sits
 * under the plot and the labels of the right half's points are drawn to their left, so no label
 * runs into the legend or off the plot.
 */
export function privacyUtilitySpec(results: ExperimentResults): TopLevelSpec {
  const points = results.rows.map((r) => {
    const seAcc = finiteOr0(r.se?.testAccuracy);
    const seAdv = finiteOr0(r.se?.maxAdvantage);
    return { r, seAcc, seAdv };
  });
  const xDomain = uncertaintyDomain(
    points.map((p) => ({ value: p.r.maxAdvantage, se: p.seAdv })),
    { bounds: [-1, 1] },
  );
  const yDomain = uncertaintyDomain(points.map((p) => ({ value: p.r.testAccuracy, se: p.seAcc })));
  const middle = (xDomain[0] + xDomain[1]) / 2;
  const values = points.map(({ r, seAcc, seAdv }) => ({
    series: seriesOf(r.label),
    label: r.label,
    testAccuracy: r.testAccuracy,
    maxAdvantage: r.maxAdvantage,
    accLow: r.testAccuracy - seAcc,
    accHigh: r.testAccuracy + seAcc,
    advLow: r.maxAdvantage - seAdv,
    advHigh: r.maxAdvantage + seAdv,
    side: r.maxAdvantage > middle ? 'left' : 'right',
  }));
  const color = { field: 'series', type: 'nominal', title: 'defense', legend: { orient: 'bottom', direction: 'horizontal', columns: 3 } };
  // Every layer names the same explicit domain, so no layer's data (the bars' ends) widens or narrows it.
  const x = (field: string) => ({
    field,
    type: 'quantitative',
    title: 'max attack advantage (TPR − FPR)',
    scale: { domain: xDomain, nice: false, zero: false },
  });
  const y = (field: string) => ({ field, type: 'quantitative', title: 'test accuracy', scale: { domain: yDomain, nice: false, zero: false } });
  const label = (side: 'left' | 'right') => ({
    transform: [{ filter: { field: 'side', equal: side } }],
    mark: { type: 'text', dx: side === 'right' ? 7 : -7, dy: -8, align: side === 'right' ? 'left' : 'right', fontSize: 10 },
    encoding: { x: x('maxAdvantage'), y: y('testAccuracy'), text: { field: 'label' } },
  });
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: { text: 'Privacy-utility trade-off (up-left is better)', subtitle: 'bars: ± 1 SE; axes cover ± 2 SE and at least 5 points' },
    width: 420,
    height: 300,
    data: { values },
    layer: [
      { mark: { type: 'line', point: false, opacity: 0.5 }, encoding: { x: x('maxAdvantage'), y: y('testAccuracy'), color, order: { field: 'maxAdvantage' } } },
      { mark: { type: 'rule', strokeWidth: 1.5 }, encoding: { x: x('maxAdvantage'), y: y('accLow'), y2: { field: 'accHigh' }, color } },
      { mark: { type: 'rule', strokeWidth: 1.5 }, encoding: { y: y('testAccuracy'), x: x('advLow'), x2: { field: 'advHigh' }, color } },
      {
        mark: { type: 'point', filled: true, size: 80 },
        encoding: {
          x: x('maxAdvantage'),
          y: y('testAccuracy'),
          color,
          tooltip: [{ field: 'label' }, { field: 'testAccuracy', format: '.3f' }, { field: 'maxAdvantage', format: '.3f' }],
        },
      },
      label('right'),
      label('left'),
    ],
  } as TopLevelSpec;
}

const finiteOr0 = (v: number | undefined) => (v !== undefined && Number.isFinite(v) ? v : 0);

/**
 * The lower end of the log-log ROC axes: the power of ten at or below the smallest positive rate
 * plotted, i.e. the data's resolution (1 / number of non-members for FPR), not an arbitrary 1e-5.
 */
export function rocFloor(rates: Iterable<number>): number {
  let smallest = 1;
  for (const r of rates) if (r > 0 && r < smallest) smallest = r;
  return Number(`1e${Math.floor(Math.log10(smallest) + 1e-9)}`); // 10 ** -4 is 9.999…e-5 in floating point
}

/** One line of a log-log ROC plot: its legend entry and its rates. */
export interface RocLine {
  readonly name: string;
  readonly roc: { readonly fpr: readonly number[]; readonly tpr: readonly number[] };
}

/**
 * Log-log ROC curves (TPR against FPR, both on log axes from `floor` to 1), a line per entry of
 * `lines` (its name in the data's `legend.field`, the legend titled `legend.title`); rates of 0 are
 * drawn at the floor, the dashed diagonal is chance.
 * @param floor - the axes' lower end (default {@link rocFloor} of the plotted rates).
 */
export function logLogRocSpec(
  lines: readonly RocLine[],
  options: {
    readonly title: string | { readonly text: string; readonly subtitle: string };
    readonly legend: { readonly field: string; readonly title: string };
    readonly size: number;
    readonly floor?: number;
  },
): TopLevelSpec {
  const floor = options.floor ?? rocFloor(lines.flatMap((l) => [...l.roc.fpr, ...l.roc.tpr]));
  const values = lines.flatMap((l) =>
    l.roc.fpr.map((f, i) => ({ [options.legend.field]: l.name, fpr: Math.max(floor, f), tpr: Math.max(floor, l.roc.tpr[i]!) })),
  );
  const axis = (field: string, title?: string) => ({
    field,
    type: 'quantitative',
    scale: { type: 'log', domain: [floor, 1] },
    ...(title === undefined ? {} : { title }),
  });
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: options.title,
    width: options.size,
    height: options.size,
    data: { values },
    layer: [
      {
        data: {
          values: [
            { x: floor, y: floor },
            { x: 1, y: 1 },
          ],
        },
        mark: { type: 'line', strokeDash: [4, 4], color: '#999' },
        encoding: { x: axis('x'), y: axis('y') },
      },
      {
        mark: { type: 'line', interpolate: 'step-after' },
        encoding: {
          x: axis('fpr', 'FPR'),
          y: axis('tpr', 'TPR'),
          color: { field: options.legend.field, type: 'nominal', title: options.legend.title },
          order: { field: 'fpr' },
        },
      },
    ],
  } as TopLevelSpec;
}

/** Log-log ROC curves of one attack, a line per defense; rates of 0 are drawn at the axes' floor ({@link rocFloor}). */
export function rocSpec(results: ExperimentResults, attack: string): TopLevelSpec {
  const lines = results.rows.flatMap((row) => {
    const a = row.attacks.find((x) => x.attack === attack);
    return a === undefined ? [] : [{ name: row.label, roc: a.roc }];
  });
  return logLogRocSpec(lines, { title: `ROC, ${attack} attack (log-log)`, legend: { field: 'label', title: 'defense' }, size: 300 });
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
      encoding: {
        x: { field: 'loss', type: 'quantitative', bin: false, title: 'cross-entropy loss' },
        y: { field: 'fraction', type: 'quantitative', stack: null, title: 'fraction' },
        color: { field: 'set', type: 'nominal' },
      },
    },
  } as TopLevelSpec;
}
