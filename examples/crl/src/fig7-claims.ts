import { claim, compareEstimates, hanleyMcNeilSe, type Claim, type ClaimVerdict, type Estimate } from '@mia/experiments/reproduce';
import { AUC_COLUMNS, type Table1Column } from './paper-values';

/** The ablation approaches of CRL Table 2 / Fig. 7. */
export const ABLATIONS = ['ImpRelaxLoss', 'Relaxed Center Loss', 'CRL'] as const;
export type Ablation = (typeof ABLATIONS)[number];

/** One measured point of Fig. 7: an approach at one relaxation level. */
export interface AblationPoint {
  readonly approach: Ablation;
  readonly level: number;
  readonly values: Partial<Record<Table1Column, number>>;
  /** Set when the point's model collapsed or failed: it is left out of every claim. */
  readonly collapsed?: string;
}

/** The evaluation set sizes the SEs rest on (binomial for accuracies, Hanley–McNeil for AUCs). */
export interface AblationSizes {
  readonly members: number;
  readonly nonMembers: number;
}

const pct = (v: number) => (100 * v).toFixed(1);
const meanAuc = (p: AblationPoint): number => {
  const v = AUC_COLUMNS.map((c) => p.values[c]).filter((x): x is number => x !== undefined);
  return v.reduce((a, b) => a + b, 0) / v.length;
};
const of = (points: readonly AblationPoint[], a: Ablation) => points.filter((p) => p.approach === a);
const bestAcc = (points: readonly AblationPoint[]) => Math.max(...points.map((p) => p.values['Test Acc.'] ?? -Infinity));

const accuracy = (v: number, n: AblationSizes): Estimate => ({ value: v, se: Math.sqrt(Math.max(0, v * (1 - v)) / n.nonMembers), seSource: 'binomial' });
const aucEstimate = (v: number, n: AblationSizes): Estimate => ({ value: v, se: hanleyMcNeilSe(v, n.members, n.nonMembers), seSource: 'binomial' });

/** "Removing a component raises an AUC": `ablated` > CRL beyond 2 SE at the same level on most (level, attack) pairs; CRL above on most → does not hold. */
function removedComponentClaim(statement: string, points: readonly AblationPoint[], ablated: Ablation, n: AblationSizes): Claim {
  const parts: string[] = [];
  let higher = 0;
  let lower = 0;
  let total = 0;
  for (const p of of(points, ablated)) {
    const crl = of(points, 'CRL').find((q) => q.level === p.level);
    if (crl === undefined) continue;
    for (const column of AUC_COLUMNS) {
      const a = p.values[column];
      const b = crl.values[column];
      if (a === undefined || b === undefined) continue;
      total += 1;
      const v = compareEstimates(aucEstimate(a, n), aucEstimate(b, n), { direction: 'greater', format: 'pct' }).verdict;
      if (v === 'holds') higher += 1;
      if (v === 'does not hold') lower += 1;
      parts.push(`level ${p.level} ${column.replace(' AUC', '')}: ${pct(a)} vs CRL ${pct(b)} (${v})`);
    }
  }
  if (total === 0) return claim(statement, undefined, 'no level measured for both approaches');
  const verdict: ClaimVerdict = higher > total / 2 ? 'holds' : lower > total / 2 ? 'does not hold' : 'within noise';
  return { statement, verdict, evidence: `${ablated} > CRL beyond 2 SE in ${higher}/${total} (level, attack) pairs, below in ${lower}: ${parts.join('; ')}` };
}

/** a > every b beyond 2 SE → holds; below any beyond 2 SE → does not hold; else within noise. */
function accuracyAbove(statement: string, a: [string, number], others: ReadonlyArray<[string, number]>, n: AblationSizes): Claim {
  const ds = others.map(([label, v]) => ({ label, d: compareEstimates(accuracy(a[1], n), accuracy(v, n), { direction: 'greater', format: 'pct' }) }));
  const verdict: ClaimVerdict = ds.some((x) => x.d.verdict === 'does not hold')
    ? 'does not hold'
    : ds.every((x) => x.d.verdict === 'holds')
      ? 'holds'
      : 'within noise';
  return { statement, verdict, evidence: ds.map((x) => `${a[0]} vs ${x.label}: ${x.d.evidence}`).join('; ') };
}

/**
 * The claims of the ablation (CRL paper §5.3, arXiv:2404.17674), evaluated on the measured points; "not evaluated"
 * when no point was measured.
 */
export function fig7Claims(all: readonly AblationPoint[], n: AblationSizes): Claim[] {
  const points = all.filter((p) => p.collapsed === undefined);
  const dropped = all.filter((p) => p.collapsed !== undefined).map((p) => `${p.approach} level ${p.level}: ${p.collapsed}`);
  const statements = [
    'Relaxed center loss reaches the highest test accuracy of the three approaches (max over levels)',
    "ImpRelaxLoss's highest test accuracy < Relaxed center loss's",
    "Removing the centres raises an AUC: ImpRelaxLoss's AUC > CRL's at the same level on most (level, attack) pairs",
    "Removing the normalisation raises an AUC: Relaxed center loss's AUC > CRL's at the same level on most (level, attack) pairs",
    "Normalisation lets the model resist MIAs at higher test accuracy (paper: ≈6 points): at the privacy level both reach (mean AUC), CRL's best test accuracy > Relaxed center loss's",
  ];
  if (all.length === 0) return statements.map((s) => claim(s, undefined, 'Fig. 7 was not run here (dataset not available)'));
  if (ABLATIONS.some((a) => of(points, a).length === 0))
    return statements.map((s) => ({
      statement: s,
      verdict: 'not testable',
      evidence: `not testable at this scale: every point of an approach collapsed (${dropped.join('; ')})`,
    }));
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
  const left = dropped.length === 0 ? '' : ` (left out: ${dropped.join('; ')})`;
  const withLine = (c: Claim, prefix: string): Claim => ({ ...c, evidence: `${prefix}${c.evidence}${left}` });
  return [
    withLine(
      accuracyAbove(
        statements[0]!,
        ['Relaxed Center Loss', rcl],
        [
          ['ImpRelaxLoss', best.ImpRelaxLoss],
          ['CRL', best.CRL],
        ],
        n,
      ),
      `best test accuracy: ${bestLine}; `,
    ),
    withLine(accuracyAbove(statements[1]!, ['Relaxed Center Loss', rcl], [['ImpRelaxLoss', best.ImpRelaxLoss]], n), `best test accuracy: ${bestLine}; `),
    withLine(removedComponentClaim(statements[2]!, points, 'ImpRelaxLoss', n), ''),
    withLine(removedComponentClaim(statements[3]!, points, 'Relaxed Center Loss', n), ''),
    withLine(accuracyAbove(statements[4]!, ['CRL', crlAt], [['Relaxed Center Loss', rclAt]], n), `at mean AUC ≤ ${pct(level)}: `),
  ];
}
