import type { ConfidenceInterval } from './clopper-pearson';
import { bootstrapAucAndAdvantageSets } from './auc-advantage-bootstrap';
import { bootstrapBlocks } from './bootstrap-blocks';
import { MetricsError } from './metrics-error';
import { rocOfBlocks, type RocCurve } from './roc-curve';
import { aucOfBlocks } from './score-blocks';
import { tprAtFpr, type TprAtFprOptions } from './tpr-at-fpr';
import { checkNumber, describe, type Membership, type Scores } from './validate';

/** Options of the bootstrap intervals. */
export interface BootstrapOptions {
  /** Number of bootstrap resamples. @default 1000 */
  resamples?: number;
  /** Two-sided confidence level in (0, 1). @default 0.95 */
  confidence?: number;
  /** Seed of the built-in generator ({@link seededUniform}); ignored when `random` is given. @default 0 */
  seed?: number;
  /** A uniform generator on [0, 1) to draw from instead, e.g. `() => rng.next()` with `@mia/core`'s `seededRandom`. */
  random?: () => number;
}

/** A percentile bootstrap interval, with the resampled statistic values. */
export interface BootstrapInterval extends ConfidenceInterval {
  /** The statistic on each resample, in resample order. */
  samples: Float64Array;
}

/**
 * Percentile bootstrap interval of any statistic of the ROC curve. Resampling is **stratified**:
 * members and non-members are each drawn with replacement to their original counts, so every
 * resample has both classes (as pROC's default). The estimate is the statistic on the original data;
 * the bounds are the `α/2` and `1 − α/2` quantiles of the resampled values (linear interpolation,
 * numpy's default). Each resample costs O(n) (the scores are sorted once; resamples only reweight).
 *
 * @param scores - One score per example, higher = more likely member (no NaN).
 * @param isMember - One label per example: `true`/`1` member, `false`/`0` non-member.
 * @param statistic - Maps a ROC curve to a number (not NaN).
 * @param options - {@link BootstrapOptions}.
 * @returns The estimate, the bounds and the resampled values.
 * @throws MetricsError on bad scores/labels, bad options, or a statistic returning a non-number or NaN.
 * @see Efron & Tibshirani (1993), ch. 13 (percentile interval).
 */
export function bootstrapRocStatistic(
  scores: Scores,
  isMember: Membership,
  statistic: (roc: RocCurve) => number,
  options: BootstrapOptions = {},
): BootstrapInterval {
  const fn = 'bootstrapRocStatistic';
  if (typeof statistic !== 'function') throw new MetricsError(`${fn}: statistic must be a function, got ${describe(statistic)}`);
  return bootstrapBlocks(fn, scores, isMember, (blocks) => statistic(rocOfBlocks(blocks)), options);
}

/**
 * Percentile bootstrap interval of the AUC ({@link auc}), stratified; see {@link bootstrapRocStatistic}.
 *
 * @param scores - One score per example, higher = more likely member (no NaN).
 * @param isMember - One label per example: `true`/`1` member, `false`/`0` non-member.
 * @param options - {@link BootstrapOptions}.
 * @returns The AUC, its bounds and the resampled AUCs.
 * @throws MetricsError on bad scores/labels or options.
 * @see docs/protocol.md §5 "AUC".
 */
export function bootstrapAuc(scores: Scores, isMember: Membership, options: BootstrapOptions = {}): BootstrapInterval {
  return bootstrapBlocks('bootstrapAuc', scores, isMember, aucOfBlocks, options);
}

/**
 * Percentile bootstrap interval of TPR at a target FPR ({@link tprAtFpr}, `≤` convention unless
 * `strict`), stratified.
 *
 * @param scores - One score per example, higher = more likely member (no NaN).
 * @param isMember - One label per example: `true`/`1` member, `false`/`0` non-member.
 * @param fpr - The target FPR in [0, 1] (a fraction).
 * @param options - {@link BootstrapOptions} plus `strict` ({@link TprAtFprOptions}).
 * @returns The TPR, its bounds and the resampled TPRs.
 * @throws MetricsError on bad scores/labels, `fpr` outside [0, 1], or bad options.
 * @see docs/protocol.md §5 "TPR @ x% FPR", §7 A30.
 */
export function bootstrapTprAtFpr(scores: Scores, isMember: Membership, fpr: number, options: BootstrapOptions & TprAtFprOptions = {}): BootstrapInterval {
  const target = checkNumber('bootstrapTprAtFpr', 'fpr', fpr, 0, 1);
  const strict = options.strict === true;
  return bootstrapBlocks('bootstrapTprAtFpr', scores, isMember, (blocks) => tprAtFpr(rocOfBlocks(blocks), target, { strict }).tpr, options);
}

/**
 * Percentile bootstrap intervals of the AUC and of the best-threshold advantage
 * (`bestOperatingPoint(roc).advantage`, the threshold re-chosen in every resample), stratified, on
 * the same resamples: each interval equals {@link bootstrapAuc} and {@link bootstrapRocStatistic}
 * with the same options, at the cost of one resampling.
 *
 * @param scores - One score per example, higher = more likely member (no NaN).
 * @param isMember - One label per example: `true`/`1` member, `false`/`0` non-member.
 * @param options - {@link BootstrapOptions}.
 * @returns The AUC and the advantage, each with its bounds and resampled values.
 * @throws MetricsError on bad scores/labels or options.
 * @see docs/protocol.md §5 "AUC", "Attack advantage"; Efron & Tibshirani (1993), ch. 13.
 */
export function bootstrapAucAndAdvantage(
  scores: Scores,
  isMember: Membership,
  options: BootstrapOptions = {},
): { auc: BootstrapInterval; advantage: BootstrapInterval } {
  return bootstrapAucAndAdvantageSets('bootstrapAucAndAdvantage', [scores], isMember, options)[0]!;
}

/**
 * {@link bootstrapAucAndAdvantage} of several score sets of the same examples (e.g. several attacks
 * against one model), on the same resample draws: each result equals its own call with the same
 * options, and the random draws are made once for all the sets.
 *
 * @param scoreSets - One or more score arrays, each one score per example, higher = more likely member (no NaN).
 * @param isMember - One label per example (shared by every set): `true`/`1` member, `false`/`0` non-member.
 * @param options - {@link BootstrapOptions}.
 * @returns Per set, in order, the AUC and the advantage with their bounds and resampled values.
 * @throws MetricsError on bad scores/labels or options, or no score set.
 * @see docs/protocol.md §5 "AUC", "Attack advantage"; Efron & Tibshirani (1993), ch. 13.
 */
export function bootstrapAucAndAdvantageOfEach(
  scoreSets: readonly Scores[],
  isMember: Membership,
  options: BootstrapOptions = {},
): Array<{ auc: BootstrapInterval; advantage: BootstrapInterval }> {
  const fn = 'bootstrapAucAndAdvantageOfEach';
  if (!Array.isArray(scoreSets) || scoreSets.length === 0)
    throw new MetricsError(`${fn}: scoreSets must be a non-empty array of score arrays, got ${describe(scoreSets)}`);
  return bootstrapAucAndAdvantageSets(fn, scoreSets, isMember, options);
}
