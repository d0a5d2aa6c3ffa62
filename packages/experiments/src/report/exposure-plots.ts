import type { TopLevelSpec } from 'vega-lite';
import type { ExperimentResults } from '../run/results';

/**
 * Member vs non-member distributions of each row's exposure-attack scores (`row.exposure.scoreHistogram`),
 * a panel per row with its own score axis (the attacks' scales differ), as fractions of each set.
 */
export function scoreHistogramSpec(results: ExperimentResults): TopLevelSpec {
  const values: Array<{ panel: string; start: number; end: number; set: string; fraction: number }> = [];
  const panels: string[] = [];
  for (const row of results.rows) {
    if (row.exposure === undefined) continue;
    const { edges, members, nonMembers } = row.exposure.scoreHistogram;
    const panel = `${row.label} (${row.exposure.attack})`;
    panels.push(panel);
    const add = (set: string, counts: readonly number[]) => {
      const total = counts.reduce((a, b) => a + b, 0) || 1;
      counts.forEach((c, i) => values.push({ panel, start: edges[i]!, end: edges[i + 1]!, set, fraction: c / total }));
    };
    add('members', members);
    add('non-members', nonMembers);
  }
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: { text: 'Membership scores of the exposure attack', subtitle: 'higher = more likely member; the end bins hold everything beyond them' },
    data: { values },
    facet: { field: 'panel', type: 'nominal', title: null, sort: panels },
    columns: 3,
    resolve: { scale: { x: 'independent' } },
    spec: {
      width: 220,
      height: 140,
      mark: { type: 'bar', opacity: 0.6 },
      encoding: {
        x: { field: 'start', type: 'quantitative', bin: 'binned', title: 'score', scale: { zero: false } },
        x2: { field: 'end' },
        y: { field: 'fraction', type: 'quantitative', stack: null, title: 'fraction' },
        color: { field: 'set', type: 'nominal' },
      },
    },
  } as TopLevelSpec;
}
