import { betaQuantile } from './incomplete-beta';
import { MetricsError } from './metrics-error';
import type { RateCounts } from './operating-point';
import { checkInteger, describe } from './validate';

/** A confidence interval around an estimate. */
export interface ConfidenceInterval {
  /** The point estimate. */
  estimate: number;
  /** Lower bound. */
  lower: number;
  /** Upper bound. */
  upper: number;
  /** The two-sided confidence level, e.g. 0.95. */
  confidence: number;
}

/** Options of {@link clopperPearson} and {@link rateIntervals}. */
export interface ConfidenceOptions {
  /**
   * Two-sided confidence level in (0, 1).
   * @default 0.95
   */
  confidence?: number;
}

/** Validates a confidence level (internal). */
export function checkConfidence(fn: string, confidence: unknown): number {
  if (typeof confidence !== 'number' || !(confidence > 0 && confidence < 1)) {
    throw new MetricsError(`${fn}: confidence must be a number in (0, 1), got ${describe(confidence)}`);
  }
  return confidence;
}

/**
 * Exact (Clopper–Pearson) two-sided confidence interval for a binomial proportion `k / n`:
 * `lower = BetaQuantile(α/2; k, n − k + 1)` (0 when k = 0) and
 * `upper = BetaQuantile(1 − α/2; k + 1, n − k)` (1 when k = n), with `α = 1 − confidence`.
 * Conservative: the coverage is at least `confidence` for every true proportion.
 *
 * @param successes - k, an integer in [0, n].
 * @param trials - n, a positive integer.
 * @param options - {@link ConfidenceOptions}.
 * @returns The estimate `k / n` and its bounds.
 * @throws MetricsError when k or n is not an integer, `n < 1`, `k > n`, or confidence is outside (0, 1).
 * @see Clopper & Pearson (1934), Biometrika 26(4).
 */
export function clopperPearson(successes: number, trials: number, options: ConfidenceOptions = {}): ConfidenceInterval {
  return clopperPearsonFor('clopperPearson', successes, 'successes', trials, 'trials', options);
}

function clopperPearsonFor(fn: string, k: number, kName: string, n: number, nName: string, { confidence = 0.95 }: ConfidenceOptions): ConfidenceInterval {
  checkInteger(fn, nName, n, 1);
  checkInteger(fn, kName, k, 0, n);
  const alpha = 1 - checkConfidence(fn, confidence);
  const lower = k === 0 ? 0 : betaQuantile(alpha / 2, k, n - k + 1);
  const upper = k === n ? 1 : betaQuantile(1 - alpha / 2, k + 1, n - k);
  return { estimate: k / n, lower, upper, confidence };
}

/**
 * Clopper–Pearson intervals for the TPR and FPR of one operating point (e.g. a {@link tprAtFpr}
 * result or an {@link operatingPoint}). Note that at a TPR@FPR vertex the threshold was chosen on
 * the same data, so the FPR interval describes the achieved FPR, not the target.
 *
 * @param counts - `truePositives` of `numMembers` and `falsePositives` of `numNonMembers`.
 * @param options - {@link ConfidenceOptions}.
 * @returns `{tpr, fpr}` intervals (fractions).
 * @throws MetricsError when a count is not an integer in range or confidence is outside (0, 1).
 * @see docs/protocol.md §5 "TPR @ x% FPR" (report n alongside).
 */
export function rateIntervals(counts: RateCounts, options: ConfidenceOptions = {}): { tpr: ConfidenceInterval; fpr: ConfidenceInterval } {
  const fn = 'rateIntervals';
  if (typeof counts !== 'object' || counts === null) {
    throw new MetricsError(`${fn}: counts must be an object {truePositives, numMembers, falsePositives, numNonMembers}, got ${describe(counts)}`);
  }
  return {
    tpr: clopperPearsonFor(fn, counts.truePositives, 'counts.truePositives', counts.numMembers, 'counts.numMembers', options),
    fpr: clopperPearsonFor(fn, counts.falsePositives, 'counts.falsePositives', counts.numNonMembers, 'counts.numNonMembers', options),
  };
}
