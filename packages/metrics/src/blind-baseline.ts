import { delongAuc, type DelongInterval } from './delong-auc';
import { MetricsError } from './metrics-error';
import { foldsOf, subsample } from './cross-fit-folds';
import { fitLogistic } from './logistic-regression';
import { checkInteger, checkNumber, describe, toMembership } from './validate';

/** Options of {@link blindBaseline}. */
export interface BlindBaselineOptions {
  /**
   * Folds of the cross-fitting: each example is scored by a model fitted on the other folds. The
   * AUC's SE is the mean of the folds' SEs (valid whatever the folds' correlation), which grows as
   * √K: two folds give the narrowest valid interval. @default 2
   */
  folds?: number;
  /** L2 penalty λ of the logistic regression (on standardized features; the mean loss plus λ/2 · ‖w‖²). @default 0.01 */
  l2?: number;
  /** At most this many gradient steps (Nesterov-accelerated, step 1/L) per fold; fewer once the gradient is below 1e-5. @default 100 */
  iterations?: number;
  /**
   * At most this many training examples per fold (a seeded, membership-stratified subsample); every
   * example is still scored. Caps the cost on large audits. @default 2500
   */
  maxTrainingRows?: number;
  /** Seed of the fold assignment. @default 0 */
  seed?: number;
  /** Two-sided confidence level of the AUC interval. @default 0.95 */
  confidence?: number;
}

/** What {@link blindBaseline} returns. */
export interface BlindBaselineResult {
  /** Out-of-fold log-odds of membership of every example (higher = more likely member). */
  scores: Float64Array;
  /** The fold of every example (its score comes from the model fitted on the other folds). */
  foldOf: Int32Array;
  /** ROC-AUC of the out-of-fold scores, the average of the folds' AUCs, with its DeLong interval. */
  auc: DelongInterval;
  /** Folds used (fewer than asked when a class has fewer examples). */
  folds: number;
  /** Features per example. */
  numFeatures: number;
}

/**
 * A blind baseline of a membership audit: an L2-regularised logistic regression that tells members
 * from non-members by the records alone (their features and labels, never the model), cross-fitted
 * over K stratified folds so that every example is scored by a model that did not see it. Its AUC
 * is what an "attack" gets from a difference between the member and non-member distributions; an
 * attack that does not beat it beyond noise shows no leakage of the model. The AUC is the average
 * of the folds' AUCs (each fold is scored by its own model; LeDell et al. 2015), its SE the mean of
 * their DeLong SEs: cross-fitted folds are correlated (every model trained on the other folds), so
 * the independent-folds variance would be too small (Bengio & Grandvalet 2004). Plain loops on the
 * row-major features (standardized per fold), Nesterov-accelerated gradient descent with a step from
 * a power-iteration estimate of the curvature: O(iterations · folds · n · d).
 *
 * @param features - Row-major `[n, numFeatures]` features (e.g. Float32Array).
 * @param numFeatures - d, features per example (≥ 1).
 * @param isMember - `1`/`true` member, `0`/`false` non-member, one per example.
 * @param options - {@link BlindBaselineOptions}.
 * @returns Out-of-fold scores and their AUC with a DeLong interval.
 * @throws MetricsError when the lengths disagree, a feature is not finite, a class has fewer than 2
 *   examples, or an option is out of range.
 * @see Das, Zhang & Tramèr 2024, "Blind baselines beat membership inference attacks for foundation models";
 *   Chernozhukov et al. 2018 (cross-fitting).
 */
export function blindBaseline(
  features: ArrayLike<number>,
  numFeatures: number,
  isMember: ArrayLike<number | boolean>,
  options: BlindBaselineOptions = {},
): BlindBaselineResult {
  const fn = 'blindBaseline';
  const d = checkInteger(fn, 'numFeatures', numFeatures, 1);
  if (features === null || typeof features !== 'object' || typeof features.length !== 'number')
    throw new MetricsError(`${fn}: features must be an array of numbers, got ${describe(features)}`);
  const labels = toMembership(fn, isMember, Math.floor(features.length / d), 'features rows');
  if (features.length !== labels.length * d)
    throw new MetricsError(`${fn}: features must hold numFeatures (${d}) values per example, got ${features.length} values for ${labels.length} examples`, {
      kind: 'ShapeMismatchError',
    });
  for (let i = 0; i < features.length; i++) {
    if (!Number.isFinite(features[i])) throw new MetricsError(`${fn}: features[${i}] must be a finite number, got ${describe(features[i])}`);
  }
  const members = labels.reduce((s, v) => s + v, 0);
  const smaller = Math.min(members, labels.length - members);
  if (smaller < 2) throw new MetricsError(`${fn}: isMember must hold at least 2 members and 2 non-members, got ${members} and ${labels.length - members}`);
  const folds = Math.min(checkInteger(fn, 'folds', options.folds ?? 2, 2), smaller);
  const l2 = checkNumber(fn, 'l2', options.l2 ?? 0.01, Number.MIN_VALUE);
  const iterations = checkInteger(fn, 'iterations', options.iterations ?? 100, 1);
  const maxRows = checkInteger(fn, 'maxTrainingRows', options.maxTrainingRows ?? 2500, 4);
  const seed = checkInteger(fn, 'seed', options.seed ?? 0, Number.MIN_SAFE_INTEGER);
  const fold = foldsOf(labels, folds, seed);
  const scores = new Float64Array(labels.length);
  for (let k = 0; k < folds; k++) {
    const train: number[] = [];
    const test: number[] = [];
    for (let i = 0; i < labels.length; i++) (fold[i] === k ? test : train).push(i);
    const model = fitLogistic(features, d, labels, subsample(train, labels, maxRows, seed + k + 1), { l2, iterations });
    for (const i of test) scores[i] = model(i);
  }
  return { scores, foldOf: fold, auc: delongAuc(scores, labels, { confidence: options.confidence ?? 0.95, groups: fold }), folds, numFeatures: d };
}
