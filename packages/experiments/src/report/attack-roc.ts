import type { TopLevelSpec } from 'vega-lite';
import type { DefenseRow } from '../run/results';
import { logLogRocSpec, rocFloor } from './plots';

/** The lowest FPR the attack ROC plots show at least: 0.01 %, where the LiRA and RMIA papers read their curves. */
export const ATTACK_ROC_MIN = 1e-4;

/**
 * Log-log ROC curves (TPR against FPR, both on log axes from 10⁻⁴, or lower when the data resolves
 * lower, to 1) of every attack on one defense's target, a line per attack, as the LiRA and RMIA papers
 * draw them; rates of 0 are drawn at the floor, and the dashed diagonal is chance.
 */
export function attacksRocSpec(row: DefenseRow): TopLevelSpec {
  const lines = row.attacks.map((a) => ({ name: a.attack, roc: a.roc }));
  const floor = Math.min(ATTACK_ROC_MIN, rocFloor(lines.flatMap((l) => [...l.roc.fpr, ...l.roc.tpr])));
  return logLogRocSpec(lines, {
    title: { text: `ROC of the attacks, ${row.label} (log-log)`, subtitle: 'dashed: chance' },
    legend: { field: 'attack', title: 'attack' },
    size: 320,
    floor,
  });
}

/** File name of row `index`'s attack ROC figure beside `report.md` (written by `writeReport` for runs with reference models). */
export const attacksRocFile = (index: number): string => `roc-attacks-${index + 1}.svg`;
