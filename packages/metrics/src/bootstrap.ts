import { checkConfidence, type ConfidenceInterval } from './clopper-pearson';
import { MetricsError } from './metrics-error';
import { rocOfBlocks, type RocCurve } from './roc-curve';
import { aucOfBlocks, scoreBlocks, sortedAscending, type ScoreBlocks } from './score-blocks';
import { seededUniform } from './seeded-uniform';
import { tprAtFpr, type TprAtFprOptions } from './tpr-at-fpr';
import { checkInteger, checkNumber, describe, splitScores, type Membership, type Scores } from './validate';

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

function bootstrapBlocks(
  fn: string,
  scores: Scores,
  isMember: Membership,
  statistic: (blocks: ScoreBlocks) => number,
  { resamples = 1000, confidence = 0.95, seed = 0, random }: BootstrapOptions,
): BootstrapInterval {
  const { members, nonMembers } = splitScores(fn, scores, isMember);
  checkInteger(fn, 'resamples', resamples, 1);
  checkConfidence(fn, confidence);
  if (random !== undefined && typeof random !== 'function') throw new MetricsError(`${fn}: random must be a function, got ${describe(random)}`);
  if (random === undefined) checkInteger(fn, 'seed', seed, -(2 ** 53) + 1);
  const uniform = random ?? seededUniform(seed);
  const sortedMembers = sortedAscending(members);
  const sortedNonMembers = sortedAscending(nonMembers);
  const evaluate = (blocks: ScoreBlocks): number => {
    const value = statistic(blocks);
    if (typeof value !== 'number' || Number.isNaN(value)) throw new MetricsError(`${fn}: statistic must return a number (not NaN), got ${describe(value)}`);
    return value;
  };
  const estimate = evaluate(scoreBlocks(sortedMembers, sortedNonMembers));
  const memberWeights = new Float64Array(members.length);
  const nonMemberWeights = new Float64Array(nonMembers.length);
  const samples = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    drawWeights(fn, memberWeights, uniform);
    drawWeights(fn, nonMemberWeights, uniform);
    samples[r] = evaluate(scoreBlocks(sortedMembers, sortedNonMembers, memberWeights, nonMemberWeights));
  }
  const sorted = Float64Array.from(samples).sort();
  const alpha = 1 - confidence;
  return { estimate, lower: quantile(sorted, alpha / 2), upper: quantile(sorted, 1 - alpha / 2), confidence, samples };
}

/** Multiplicities of one resample with replacement: `weights[i]` = times entry i was drawn. */
function drawWeights(fn: string, weights: Float64Array, uniform: () => number): void {
  weights.fill(0);
  const n = weights.length;
  for (let i = 0; i < n; i++) {
    const u = uniform();
    if (!(u >= 0 && u < 1)) throw new MetricsError(`${fn}: random() must return numbers in [0, 1), got ${describe(u)}`);
    const k = Math.floor(u * n);
    weights[k] = weights[k]! + 1;
  }
}

/** Quantile of sorted values with linear interpolation (numpy `method='linear'`). */
function quantile(sorted: Float64Array, q: number): number {
  const position = q * (sorted.length - 1);
  const below = Math.floor(position);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below]! + (position - below) * (sorted[above]! - sorted[below]!);
}
