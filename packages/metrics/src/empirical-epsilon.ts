import { checkConfidence, clopperPearson, type ConfidenceInterval } from './clopper-pearson';
import { betaQuantile } from './incomplete-beta';
import { MetricsError } from './metrics-error';
import { rocOfBlocks } from './roc-curve';
import { scoreBlocks, sortedAscending } from './score-blocks';
import { checkNotNaN, checkNumber, describe, toNumbers, type Scores } from './validate';

/** Input of {@link empiricalEpsilonLowerBound}. */
export interface EmpiricalEpsilonInput {
  /** The attack's scores of the members (training-set examples, or canaries inserted), higher = more likely member. */
  memberScores: Scores;
  /** The attack's scores of the non-members. */
  nonMemberScores: Scores;
  /** The δ of the (ε, δ)-DP guarantee under test, in [0, 1). @default 0 */
  delta?: number;
  /** Confidence level of the bound in (0, 1). @default 0.95 */
  confidence?: number;
  /**
   * A threshold chosen before looking at these scores (e.g. on other models): only the decision
   * "member iff `score ≥ threshold`" is tested. Without it the bound is the maximum over every
   * threshold of the ROC curve, which is optimistic (the threshold is selected on the same data).
   * @default undefined (every threshold)
   */
  threshold?: number;
}

/** Result of {@link empiricalEpsilonLowerBound}. */
export interface EmpiricalEpsilon {
  /** The ε lower bound, ≥ 0 (0 when no threshold gives evidence against any ε). */
  epsilon: number;
  /** The threshold reaching it: predict member iff `score ≥ threshold` (`+Infinity` = nobody). */
  threshold: number;
  /** Which inequality gave it: `TPR ≤ e^ε·FPR + δ` (`'tpr/fpr'`) or `TNR ≤ e^ε·FNR + δ` (`'tnr/fnr'`). */
  form: 'tpr/fpr' | 'tnr/fnr';
  /** Clopper–Pearson interval of the TPR at that threshold (two-sided, at `confidence`). */
  tpr: ConfidenceInterval;
  /** Clopper–Pearson interval of the FPR at that threshold. */
  fpr: ConfidenceInterval;
  /** The δ tested. */
  delta: number;
  /** The confidence level of the bound. */
  confidence: number;
  /** Number of member scores. */
  numMembers: number;
  /** Number of non-member scores. */
  numNonMembers: number;
}

/**
 * Empirical lower bound on the ε of (ε, δ)-differential privacy from a membership attack
 * (Jagielski et al. 2020, Nasr et al. 2021). Any (ε, δ)-DP training gives every test "member iff
 * `score ≥ t`" `TPR ≤ e^ε·FPR + δ` and `1 − FPR ≤ e^ε·(1 − TPR) + δ`, so
 * `ε ≥ log((TPR_low − δ) / FPR_high)` and `ε ≥ log((1 − FPR_high − δ) / (1 − TPR_low))`, where
 * `TPR_low` and `FPR_high` are Clopper–Pearson bounds. Each bound is one side of a two-sided
 * interval at `confidence`, so each fails with probability ≤ (1 − confidence)/2 and both hold
 * together with probability ≥ `confidence` (union bound). The result is the largest value over
 * both forms and over every threshold (or the given `threshold`), clipped at 0.
 *
 * Caveat: taking the maximum over thresholds on the same scores is a selection; for a bound with
 * exact coverage choose `threshold` on held-out data (as both papers do).
 *
 * Conventions: higher score = more likely member; rates are fractions; ε in nats (natural log).
 *
 * @param input - {@link EmpiricalEpsilonInput}.
 * @returns The {@link EmpiricalEpsilon}.
 * @throws MetricsError on empty or NaN scores, `delta` outside [0, 1), confidence outside (0, 1) or a NaN threshold.
 * @see Jagielski, Ullman & Oprea (2020), "Auditing Differentially Private Machine Learning: How Private is Private SGD?", NeurIPS, Alg. 2 and Thm. 1;
 *   Nasr et al. (2021), "Adversary Instantiation: Lower Bounds for Differentially Private Machine Learning", IEEE S&P, Eq. 2.
 */
export function empiricalEpsilonLowerBound(input: EmpiricalEpsilonInput): EmpiricalEpsilon {
  const fn = 'empiricalEpsilonLowerBound';
  if (typeof input !== 'object' || input === null) {
    throw new MetricsError(`${fn}: input must be an object {memberScores, nonMemberScores, delta?, confidence?, threshold?}, got ${describe(input)}`);
  }
  const members = toNumbers(fn, 'memberScores', input.memberScores);
  const nonMembers = toNumbers(fn, 'nonMemberScores', input.nonMemberScores);
  const delta = input.delta ?? 0;
  checkNumber(fn, 'delta', delta, 0, 1);
  if (delta >= 1) throw new MetricsError(`${fn}: delta must be a finite number in [0, 1), got ${delta}`);
  const confidence = checkConfidence(fn, input.confidence ?? 0.95);
  const fixed = input.threshold === undefined ? undefined : checkNotNaN(fn, 'threshold', input.threshold);
  const nM = members.length;
  const nN = nonMembers.length;
  // Clopper–Pearson bounds depend only on the counts: cache them (a ROC has up to n vertices).
  const tprCache = new Map<number, ConfidenceInterval>();
  const fprCache = new Map<number, ConfidenceInterval>();
  const tprOf = (k: number) => cached(tprCache, k, () => clopperPearson(k, nM, { confidence }));
  const fprOf = (k: number) => cached(fprCache, k, () => clopperPearson(k, nN, { confidence }));
  let best: Omit<EmpiricalEpsilon, 'delta' | 'confidence' | 'numMembers' | 'numNonMembers'> | undefined;
  const evaluate = (threshold: number, truePositives: number, falsePositives: number, form: EmpiricalEpsilon['form']) => {
    const tpr = tprOf(truePositives);
    const fpr = fprOf(falsePositives);
    const ratio = form === 'tpr/fpr' ? (tpr.lower - delta) / fpr.upper : (1 - fpr.upper - delta) / (1 - tpr.lower);
    const epsilon = ratio > 0 ? Math.log(ratio) : -Infinity; // a negative ratio: no evidence
    if (best === undefined || epsilon > best.epsilon) best = { epsilon, threshold, form, tpr, fpr };
  };
  if (fixed !== undefined) {
    const [tp, fp] = [countAtLeast(members, fixed), countAtLeast(nonMembers, fixed)];
    evaluate(fixed, tp, fp, 'tpr/fpr');
    evaluate(fixed, tp, fp, 'tnr/fnr');
  } else {
    // Exact bounds cost a Beta quantile per count, so vertices are visited by a cheap upper bound of
    // their value and the search stops once that bound cannot beat the best exact value. The bound
    // uses TPR_low ≤ min(TPR, (α/2)^(1/nM), TPR_low at the next multiple of GRID counts) and
    // FPR_high ≥ max(FPR, 1 − (α/2)^(1/nN), FPR_high at the previous multiple): the Clopper–Pearson
    // bounds increase with the count, and only every GRID-th count needs a quantile.
    const roc = rocOfBlocks(scoreBlocks(sortedAscending(members), sortedAscending(nonMembers)));
    const halfAlpha = (1 - confidence) / 2;
    const minFprHigh = 1 - halfAlpha ** (1 / nN);
    const maxTprLow = halfAlpha ** (1 / nM);
    const gridLow = new Map<number, number>();
    const gridHigh = new Map<number, number>();
    const tprLowAtMost = (k: number) => {
      const g = Math.min(nM, Math.ceil(k / GRID) * GRID);
      return Math.min(
        k / nM,
        maxTprLow,
        cached(gridLow, g, () => (g === 0 ? 0 : betaQuantile(halfAlpha, g, nM - g + 1))),
      );
    };
    const fprHighAtLeast = (j: number) => {
      const g = Math.floor(j / GRID) * GRID;
      return Math.max(
        j / nN,
        minFprHigh,
        cached(gridHigh, g, () => (g === nN ? 1 : betaQuantile(1 - halfAlpha, g + 1, nN - g))),
      );
    };
    const candidates: Array<{ k: number; form: EmpiricalEpsilon['form']; cheap: number }> = [];
    for (let k = 0; k < roc.fpr.length; k++) {
      const tprLow = tprLowAtMost(Math.round(roc.tpr[k]! * nM));
      const fprHigh = fprHighAtLeast(Math.round(roc.fpr[k]! * nN));
      const first = (tprLow - delta) / fprHigh;
      const second = (1 - fprHigh - delta) / (1 - tprLow);
      if (first > 0) candidates.push({ k, form: 'tpr/fpr', cheap: Math.log(first) });
      if (second > 0) candidates.push({ k, form: 'tnr/fnr', cheap: Math.log(second) });
    }
    candidates.sort((a, b) => b.cheap - a.cheap || a.k - b.k);
    for (const { k, form, cheap } of candidates) {
      if (best !== undefined && cheap <= best.epsilon) break;
      evaluate(roc.thresholds[k]!, Math.round(roc.tpr[k]! * nM), Math.round(roc.fpr[k]! * nN), form);
    }
    if (best === undefined) evaluate(Infinity, 0, 0, 'tpr/fpr');
  }
  const found = best!;
  return { ...found, epsilon: Math.max(0, found.epsilon), delta, confidence, numMembers: nM, numNonMembers: nN };
}

/** Counts between two Clopper–Pearson bounds computed exactly for the search's cheap bound. */
const GRID = 16;

function cached<T>(cache: Map<number, T>, key: number, compute: () => T): T {
  let value = cache.get(key);
  if (value === undefined) {
    value = compute();
    cache.set(key, value);
  }
  return value;
}

function countAtLeast(values: Float64Array, threshold: number): number {
  let count = 0;
  for (const v of values) if (v >= threshold) count++;
  return count;
}
