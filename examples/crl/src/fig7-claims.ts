import { claim, type Claim } from '@mia/experiments/reproduce';
import { AUC_COLUMNS, type Table1Column } from './paper-values';

/** The ablation approaches of CRL Table 2 / Fig. 7. */
export const ABLATIONS = ['ImpRelaxLoss', 'Relaxed Center Loss', 'CRL'] as const;
export type Ablation = (typeof ABLATIONS)[number];

/** One measured point of Fig. 7: an approach at one relaxation level. */
export interface AblationPoint {
  readonly approach: Ablation;
  readonly level: number;
  readonly values: Partial<Record<Table1Column, number>>;
}

const pct = (v: number) => (100 * v).toFixed(1);
const meanAuc = (p: AblationPoint): number => {
  const v = AUC_COLUMNS.map((c) => p.values[c]).filter((x): x is number => x !== undefined);
  return v.reduce((a, b) => a + b, 0) / v.length;
};
const of = (points: readonly AblationPoint[], a: Ablation) => points.filter((p) => p.approach === a);
const bestAcc = (points: readonly AblationPoint[]) => Math.max(...points.map((p) => p.values['Test Acc.'] ?? -Infinity));

/** "Removing a component raises an AUC": `ablated` > CRL at the same level on most (level, attack) pairs. */
function removedComponentClaim(statement: string, points: readonly AblationPoint[], ablated: Ablation): Claim {
  const parts: string[] = [];
  let higher = 0;
  let total = 0;
  for (const p of of(points, ablated)) {
    const crl = of(points, 'CRL').find((q) => q.level === p.level);
    if (crl === undefined) continue;
    for (const column of AUC_COLUMNS) {
      const a = p.values[column];
      const b = crl.values[column];
      if (a === undefined || b === undefined) continue;
      total += 1;
      if (a > b) higher += 1;
      parts.push(`level ${p.level} ${column.replace(' AUC', '')}: ${pct(a)} vs CRL ${pct(b)}`);
    }
  }
  if (total === 0) return claim(statement, undefined, 'no level measured for both approaches');
  return claim(statement, higher > total / 2, `${ablated} > CRL in ${higher}/${total} (level, attack) pairs: ${parts.join('; ')}`);
}

/**
 * The claims of the ablation (CRL paper §5.3, arXiv:2404.17674), evaluated on the measured points; "not evaluated"
 * when no point was measured.
 */
export function fig7Claims(points: readonly AblationPoint[]): Claim[] {
  const statements = [
    'Relaxed center loss reaches the highest test accuracy of the three approaches (max over levels)',
    "ImpRelaxLoss's highest test accuracy < Relaxed center loss's",
    "Removing the centres raises an AUC: ImpRelaxLoss's AUC > CRL's at the same level on most (level, attack) pairs",
    "Removing the normalisation raises an AUC: Relaxed center loss's AUC > CRL's at the same level on most (level, attack) pairs",
    "Normalisation lets the model resist MIAs at higher test accuracy (paper: ≈6 points): at the privacy level both reach (mean AUC), CRL's best test accuracy > Relaxed center loss's",
  ];
  if (points.length === 0) return statements.map((s) => claim(s, undefined, 'Fig. 7 was not run here (dataset not available)'));
  const best = Object.fromEntries(ABLATIONS.map((a) => [a, bestAcc(of(points, a))])) as Record<Ablation, number>;
  const bestLine = ABLATIONS.map((a) => `${a} ${pct(best[a])}`).join(', ');
  const rcl = best['Relaxed Center Loss'];
  // The common privacy level: the weaker of the two approaches' most private points.
  const crlPts = of(points, 'CRL');
  const rclPts = of(points, 'Relaxed Center Loss');
  const level = Math.max(Math.min(...crlPts.map(meanAuc)), Math.min(...rclPts.map(meanAuc)));
  const accAt = (pts: readonly AblationPoint[]) => bestAcc(pts.filter((p) => meanAuc(p) <= level + 1e-12));
  const crlAt = accAt(crlPts);
  const rclAt = accAt(rclPts);
  return [
    claim(statements[0]!, rcl >= best.ImpRelaxLoss && rcl >= best.CRL, `best test accuracy: ${bestLine}`),
    claim(statements[1]!, best.ImpRelaxLoss < rcl, `best test accuracy: ${bestLine}`),
    removedComponentClaim(statements[2]!, points, 'ImpRelaxLoss'),
    removedComponentClaim(statements[3]!, points, 'Relaxed Center Loss'),
    claim(statements[4]!, crlAt > rclAt, `at mean AUC ≤ ${pct(level)}: CRL ${pct(crlAt)} vs Relaxed center loss ${pct(rclAt)} (difference ${(100 * (crlAt - rclAt)).toFixed(1)} points)`),
  ];
}
