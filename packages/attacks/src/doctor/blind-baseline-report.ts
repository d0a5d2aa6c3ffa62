import { blindBaseline, blindLabelBaseline, delongAuc, delongAucDifference, normalQuantile } from '@mia/metrics';
import type { AuditFinding } from './audit-finding';
import type { RecordFeatures } from './record-features';

/**
 * Confidence of the `distribution-shift` finding: the blind baseline's AUC must exceed 0.5 at this
 * two-sided level (one-sided p < 0.005, with an SE that is already conservative: the mean of the
 * folds' SEs), so that audits of unshifted data almost never trip it; the headline comparison with
 * the attacks is at the audit's own confidence.
 */
export const SHIFT_CONFIDENCE = 0.99;

/** How the blind baseline classifies, for reports. */
export const BLIND_BASELINE_METHOD = 'L2-regularised logistic regression (λ 0.01, standardized features), 2-fold cross-fitted';
/** How the labels-only blind baseline classifies, for reports. */
export const LABEL_BASELINE_METHOD = "each record's class log-odds of membership, 2-fold cross-fitted (logistic regression on the one-hot label)";

/** One attack held against the blind baseline on the same records. */
export interface BaselineComparison {
  /** Which part of the audit (e.g. a row label), when it has several. */
  readonly scope?: string;
  /** The attack with the highest AUC. */
  readonly attack: string;
  /** Its AUC with a DeLong interval at the audit's confidence. */
  readonly auc: { readonly estimate: number; readonly lower: number; readonly upper: number };
  /** Its AUC minus the baseline's, with DeLong's paired interval. */
  readonly difference: { readonly estimate: number; readonly lower: number; readonly upper: number };
  /** Whether it beats the baseline and chance beyond noise: both lower bounds above 0. */
  readonly beatsBaseline: boolean;
}

/** The blind baseline of an audit: a model-free classifier of membership from the records alone. */
export interface BlindBaselineReport {
  /** The classifier. */
  readonly method: string;
  /** What it reads. */
  readonly features: string;
  /** Its out-of-fold AUC with a DeLong interval and standard error. */
  readonly auc: { readonly estimate: number; readonly lower: number; readonly upper: number; readonly confidence: number; readonly se: number };
  readonly folds: number;
  /** The best attack (per scope) against it. */
  readonly comparisons: readonly BaselineComparison[];
}

/**
 * Fits the blind baseline of an audit on its records' features (or, without any, on their labels
 * alone) and returns its report (without comparisons) and its out-of-fold scores.
 * @param isMember - 1 for members, in the order of the features' rows.
 */
export function fitBlindBaseline(
  records: RecordFeatures | { readonly labels: ArrayLike<number> },
  isMember: Uint8Array,
  options: { readonly confidence: number; readonly seed?: number },
): { report: BlindBaselineReport; scores: Float64Array; foldOf: Int32Array } {
  const labelsOnly = 'labels' in records;
  const fit = labelsOnly
    ? blindLabelBaseline(records.labels, isMember, { confidence: options.confidence, seed: options.seed ?? 0 })
    : blindBaseline(records.features, records.numFeatures, isMember, { confidence: options.confidence, seed: options.seed ?? 0 });
  const { estimate, lower, upper, confidence, se } = fit.auc;
  return {
    scores: fit.scores,
    foldOf: fit.foldOf,
    report: {
      method: labelsOnly ? LABEL_BASELINE_METHOD : BLIND_BASELINE_METHOD,
      features: labelsOnly ? 'the labels alone' : records.description,
      auc: { estimate, lower, upper, confidence, se },
      folds: fit.folds,
      comparisons: [],
    },
  };
}

/**
 * The attack (scores of the same records, in the same order) against the baseline's out-of-fold
 * scores, at `confidence`: both AUCs within each of the baseline's folds, averaged (DeLong, paired).
 */
export function compareWithBaseline(
  attack: { readonly name: string; readonly scores: ArrayLike<number> },
  baseline: { readonly scores: Float64Array; readonly foldOf: Int32Array },
  isMember: Uint8Array,
  confidence: number,
  scope?: string,
): BaselineComparison {
  const own = delongAuc(attack.scores, isMember, { confidence, groups: baseline.foldOf });
  const difference = delongAucDifference(attack.scores, baseline.scores, isMember, { confidence, groups: baseline.foldOf });
  return {
    ...(scope === undefined ? {} : { scope }),
    attack: attack.name,
    auc: { estimate: own.estimate, lower: own.lower, upper: own.upper },
    difference: { estimate: difference.estimate, lower: difference.lower, upper: difference.upper },
    beatsBaseline: difference.lower > 0 && own.lower > 0.5,
  };
}

/** The `distribution-shift` finding when the baseline's AUC exceeds 0.5 at {@link SHIFT_CONFIDENCE}; else undefined. */
export function shiftFinding(baseline: BlindBaselineReport): AuditFinding | undefined {
  const z = normalQuantile(1 - (1 - SHIFT_CONFIDENCE) / 2);
  const lower = baseline.auc.estimate - z * baseline.auc.se;
  if (!(lower > 0.5)) return undefined;
  return {
    code: 'distribution-shift',
    cause: `a blind baseline that never queries the model tells members from non-members with AUC ${baseline.auc.estimate.toFixed(3)} (${100 * SHIFT_CONFIDENCE} % lower bound ${lower.toFixed(3)} > 0.5; it reads ${baseline.features}): the two sets differ in distribution`,
    action:
      'draw members and non-members from the same distribution (a random split of one pool); until then read each attack against the baseline, not against 0.5',
    numbers: { auc: baseline.auc.estimate, lower, se: baseline.auc.se },
  };
}

/** A note when the baseline is above chance at the audit's confidence but not at {@link SHIFT_CONFIDENCE} (no finding, but the reader should know). */
export function baselineNote(baseline: BlindBaselineReport): string | undefined {
  if (!(baseline.auc.lower > 0.5) || shiftFinding(baseline) !== undefined) return undefined;
  return `The blind baseline is above chance at ${Math.round(100 * baseline.auc.confidence)} % confidence (AUC ${baseline.auc.estimate.toFixed(3)} [${baseline.auc.lower.toFixed(3)}, ${baseline.auc.upper.toFixed(3)}]) but not at the ${100 * SHIFT_CONFIDENCE} % of the distribution-shift finding: members and non-members may differ slightly; compare the attacks with it.`;
}

/**
 * One sentence for a headline: whether the best attack beats the blind baseline beyond noise, with
 * the numbers; when it does not, the audit shows no leakage of the model.
 */
export function baselineSentence(baseline: BlindBaselineReport, comparison: BaselineComparison): string {
  const f = (v: number) => v.toFixed(3);
  const signed = (v: number) => `${v >= 0 ? '+' : '−'}${f(Math.abs(v))}`;
  const b = `AUC ${f(baseline.auc.estimate)} [${f(baseline.auc.lower)}, ${f(baseline.auc.upper)}]`;
  const d = comparison.difference;
  const who = comparison.scope === undefined ? 'the best attack' : `${comparison.scope}'s best attack`;
  return comparison.beatsBaseline
    ? `The blind baseline (a classifier of the records alone, never the model) reaches ${b}; ${who} (${comparison.attack}, AUC ${f(comparison.auc.estimate)}) beats it by ${signed(d.estimate)} [${signed(d.lower)}, ${signed(d.upper)}].`
    : `No leakage shown: ${who} (${comparison.attack}, AUC ${f(comparison.auc.estimate)} [${f(comparison.auc.lower)}, ${f(comparison.auc.upper)}]) does not beat a blind baseline that never queries the model (${b}) and chance beyond noise (difference ${signed(d.estimate)} [${signed(d.lower)}, ${signed(d.upper)}]).`;
}
