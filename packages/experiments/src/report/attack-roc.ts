import type { TopLevelSpec } from 'vega-lite';
import type { DefenseRow } from '../run/results';
import { rocFloor } from './plots';

/** The lowest FPR the attack ROC plots show at least: 0.01 %, where the LiRA and RMIA papers read their curves. */
export const ATTACK_ROC_MIN = 1e-4;

/**
 * Log-log ROC curves (TPR against FPR, both on log axes from 10⁻⁴, or lower when the data resolves
 * lower, to 1) of every attack on one defense's target, a line per attack, as the LiRA and RMIA papers
 * draw them; rates of 0 are drawn at the floor, and the dashed diagonal is chance.
 */
export function attacksRocSpec(row: DefenseRow): TopLevelSpec {
  const floor = Math.min(ATTACK_ROC_MIN, rocFloor(row.attacks.flatMap((a) => [...a.roc.fpr, ...a.roc.tpr])));
  const values = row.attacks.flatMap((a) => a.roc.fpr.map((f, i) => ({ attack: a.attack, fpr: Math.max(floor, f), tpr: Math.max(floor, a.roc.tpr[i]!) })));
  const axis = (field: string, title: string) => ({ field, type: 'quantitative', scale: { type: 'log', domain: [floor, 1] }, title });
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: { text: `ROC of the attacks, ${row.label} (log-log)`, subtitle: 'dashed: chance' },
    width: 320,
    height: 320,
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
        encoding: {
          x: { field: 'x', type: 'quantitative', scale: { type: 'log', domain: [floor, 1] } },
          y: { field: 'y', type: 'quantitative', scale: { type: 'log', domain: [floor, 1] } },
        },
      },
      {
        mark: { type: 'line', interpolate: 'step-after' },
        encoding: { x: axis('fpr', 'FPR'), y: axis('tpr', 'TPR'), color: { field: 'attack', type: 'nominal', title: 'attack' }, order: { field: 'fpr' } },
      },
    ],
  } as TopLevelSpec;
}

/** File name of row `index`'s attack ROC figure beside `report.md` (written by `writeReport` for runs with reference models). */
export const attacksRocFile = (index: number): string => `roc-attacks-${index + 1}.svg`;
