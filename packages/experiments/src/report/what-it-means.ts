import type { DefenseRow, ExperimentResults } from '../run/results';
import { DEFAULT_REGIME } from '../run/testability';
import { baselineSentence } from '@mia/attacks';
import { invalidLead } from './validity-report';

const pct = (v: number) => (100 * v).toFixed(1);

/** The SE of a row's metric: the bootstrap one when the run stored it, else the binomial `sqrt(p(1−p)/n)`. */
function seOf(row: DefenseRow, metric: 'trainAccuracy' | 'testAccuracy' | 'maxAdvantage', n: number): number {
  const stored = row.se?.[metric];
  if (stored !== undefined && Number.isFinite(stored)) return stored;
  const p = Math.min(1, Math.max(0, row[metric]));
  return Math.sqrt((p * (1 - p)) / Math.max(1, n));
}

/** "clearly", "within noise" — a difference judged by the 2-SE rule of docs/protocol.md §5.1. */
function judged(delta: number, se: number): 'clearly' | 'within noise' {
  return Math.abs(delta) > 2 * se ? 'clearly' : 'within noise';
}

/** One defense against the undefended row, in one sentence; without attacks in the run, its test accuracy only. */
function defenseSentence(base: DefenseRow, row: DefenseRow, n: number, attacked = true): string {
  const dAdv = row.maxAdvantage - base.maxAdvantage;
  const dAcc = row.testAccuracy - base.testAccuracy;
  const seAdv = Math.hypot(seOf(row, 'maxAdvantage', n), seOf(base, 'maxAdvantage', n));
  const seAcc = Math.hypot(seOf(row, 'testAccuracy', n), seOf(base, 'testAccuracy', n));
  const privacy =
    judged(dAdv, seAdv) === 'within noise'
      ? `leaves the highest attack advantage unchanged within noise (${pct(row.maxAdvantage)} %, Δ ${dAdv >= 0 ? '+' : ''}${pct(dAdv)} ± ${pct(seAdv)} points)`
      : `${dAdv < 0 ? 'lowers' : 'raises'} the highest attack advantage from ${pct(base.maxAdvantage)} % to ${pct(row.maxAdvantage)} % (Δ ${dAdv >= 0 ? '+' : ''}${pct(dAdv)} ± ${pct(seAdv)} points)`;
  const utility =
    judged(dAcc, seAcc) === 'within noise'
      ? `at the same test accuracy within noise (${pct(row.testAccuracy)} % vs ${pct(base.testAccuracy)} %)`
      : `while test accuracy ${dAcc < 0 ? 'drops' : 'rises'} from ${pct(base.testAccuracy)} % to ${pct(row.testAccuracy)} % (Δ ${dAcc >= 0 ? '+' : ''}${pct(dAcc)} ± ${pct(seAcc)} points)`;
  if (!attacked)
    return judged(dAcc, seAcc) === 'within noise'
      ? `${row.label}: test accuracy ${pct(row.testAccuracy)} % vs ${pct(base.testAccuracy)} %, the same within noise.`
      : `${row.label}: test accuracy ${dAcc < 0 ? 'drops' : 'rises'} from ${pct(base.testAccuracy)} % to ${pct(row.testAccuracy)} % (Δ ${dAcc >= 0 ? '+' : ''}${pct(dAcc)} ± ${pct(seAcc)} points).`;
  return `${row.label} ${privacy} ${utility}.`;
}

/**
 * The undefended model's fit, in words that follow its numbers: "overfits" only when it fits its
 * training set (train accuracy ≥ the 90 % of docs/protocol.md §5.1, the verdicts' threshold) and its
 * train − test gap exceeds 2 SE; "does not fit its training set" below that threshold, whatever the gap.
 */
function fitOf(base: DefenseRow, n: number): { overfits: boolean; text: string } {
  const gap = base.trainAccuracy - base.testAccuracy;
  const seGap = Math.hypot(seOf(base, 'trainAccuracy', n), seOf(base, 'testAccuracy', n));
  const gapKind = gap <= 0 ? 'none' : judged(gap, seGap) === 'clearly' ? 'real' : 'noise';
  const fits = base.trainAccuracy >= DEFAULT_REGIME.minTrainAccuracy;
  const numbers = `train ${pct(base.trainAccuracy)} %, test ${pct(base.testAccuracy)} %`;
  const gapText = `a ${pct(gap)} ± ${pct(seGap)}-point train–test gap`;
  if (!fits) {
    const rest = gapKind === 'real' ? `; it still does worse on unseen data: ${gapText}` : '';
    return {
      overfits: false,
      text: `it does not fit its training set (${numbers}; below the ${pct(DEFAULT_REGIME.minTrainAccuracy)} % train accuracy of docs/protocol.md §5.1${rest})`,
    };
  }
  if (gapKind === 'real') return { overfits: true, text: `overfits (${numbers}: ${gapText})` };
  const why = gapKind === 'none' ? 'no train–test gap' : `its train–test gap of ${pct(gap)} ± ${pct(seGap)} points is within noise`;
  return { overfits: false, text: `it does not generalize worse than it fits (${numbers}: ${why})` };
}

/** The highest TPR any attack of the row reaches at FPR ≤ `fpr` (from `tprAtFpr`), or undefined when none recorded it. */
function bestTprAt(row: DefenseRow, fpr: number): number | undefined {
  const tprs = row.attacks.flatMap((a) => a.tprAtFpr.filter((t) => t.fpr === fpr).map((t) => t.tpr));
  return tprs.length === 0 ? undefined : Math.max(...tprs);
}

/**
 * The low-FPR view beside the average-case one (Carlini et al. 2022, "Membership inference attacks
 * from first principles"): how many members the best attack finds at a 0.1 % false-positive rate,
 * per row; undefined when the run recorded no TPR at that FPR.
 */
function lowFprSentence(base: DefenseRow, others: readonly DefenseRow[]): string | undefined {
  const fpr = 0.001;
  const rows = [base, ...others].map((r) => ({ r, tpr: bestTprAt(r, fpr) }));
  if (rows.some((x) => x.tpr === undefined)) return undefined;
  const [first, ...rest] = rows;
  const more = rest.map((x) => `, ${pct(x.tpr!)} % of ${x.r.label}'s`).join('');
  return `At a ${pct(fpr)} % false-positive rate the best attack identifies ${pct(first!.tpr!)} % of the undefended model's members${more} (a random guess identifies ${pct(fpr)} %): the highest advantage above is an average over all records, this is the risk to the most exposed ones, and the two need not move together.`;
}

/**
 * What a run's result means, in one sentence per defense: each defense's highest attack advantage
 * and test accuracy against the undefended row's, with the difference judged by the 2-SE rule
 * (docs/protocol.md §5.1), after a sentence on the undefended model: it overfits and leaks, or it
 * is not in a regime where a membership-inference defense can show anything (it does not fit its
 * training set, test accuracy ≤ 3× chance, or no train–test gap beyond noise); last, when the run
 * recorded TPRs at low FPR, the low-FPR view beside the average-case one. A run without attacks (a
 * sweep of targets alone) gets its accuracies only: it measures no leakage. With the run's validity
 * (`results.doctor`): first, when it has findings, that the audit is not valid; and when the
 * undefended row's best attack does not beat the blind baseline beyond noise, that sentence says
 * so instead of calling the model leaky. Empty when the run has no undefended row (`defense: none`)
 * or nothing to compare it to (then only the validity sentence, when there is one).
 */
export function whatItMeans(results: ExperimentResults): string[] {
  const invalid = invalidLead(results);
  const base = results.rows.find((r) => r.defense === 'none');
  const others = results.rows.filter((r) => r !== base);
  if (base === undefined || others.length === 0) return invalid === undefined ? [] : [invalid];
  const sizes = Object.entries(results.partition.sizes)
    .filter(([k]) => k.startsWith('target_'))
    .map(([, v]) => v);
  const n = sizes.length > 0 ? Math.min(...sizes) : 1;
  const classes = results.dataset.classes;
  const chance = classes === undefined || classes <= 0 ? undefined : 1 / classes;
  const fit = fitOf(base, n);
  const regime: string[] = [];
  if (!fit.overfits) regime.push(fit.text);
  if (chance !== undefined && base.testAccuracy <= 3 * chance)
    regime.push(`its test accuracy ${pct(base.testAccuracy)} % is at most 3× chance (${pct(chance)} %)`);
  const baseline = results.doctor?.baseline;
  const comparison = baseline?.comparisons.find((c) => c.scope === base.label);
  const unbeaten = baseline !== undefined && comparison !== undefined && !comparison.beatsBaseline;
  const attacked = results.rows.some((r) => r.attacks.length > 0);
  const lead = !attacked
    ? `The undefended model ${regime.length > 0 ? regime.join('; ') : fit.text}; the run ran no attack, so it measures no leakage.`
    : regime.length > 0
      ? `The undefended model is not in the regime a membership-inference defense is meant for (${regime.join('; ')}), so these comparisons say little:`
      : unbeaten
        ? `The undefended model ${fit.text}, but ${baselineSentence(baseline, comparison).replace(/^No leakage shown: /, '')} This run shows no membership leakage of it, so the defenses below have none to lower:`
        : `The undefended model ${fit.text} and leaks membership (highest attack advantage ${pct(base.maxAdvantage)} %).`;
  const lowFpr = lowFprSentence(base, others);
  return [
    ...(invalid === undefined ? [] : [invalid]),
    ...(regime.length > 0 && unbeaten ? [baselineSentence(baseline, comparison)] : []),
    lead,
    ...others.map((row) => defenseSentence(base, row, n, attacked)),
    ...(lowFpr === undefined || !attacked ? [] : [lowFpr]),
  ];
}
