import { lowerBound, sortedAscending } from './score-blocks';
import { toNumbers, type Scores } from './validate';

/** A fitted membership threshold: predict member iff `score ≥ threshold`. */
export interface ThresholdFit {
  /** The chosen threshold (one of the candidate scores). */
  threshold: number;
  /** The balanced accuracy `½·(#{tr ≥ t}/|tr| + #{te < t}/|te|)` it reaches on the fitting data. */
  accuracy: number;
}

/**
 * Song & Mittal's threshold search `thre_setting(tr, te)`, bit-compatible with the reference loop
 * (SM, RL, CCLr, PASTr): candidates are the values of `concat(trScores, teScores)` **in that
 * order**; each gets `acc(v) = 0.5·(#{tr ≥ v}/|tr| + #{te < v}/|te|)` (the same float operations as
 * numpy's); a candidate replaces the best one only on a strict improvement, starting from
 * `threshold = 0, accuracy = 0`, so the first maximiser in candidate order wins.
 *
 * The counts come from binary search on sorted copies, so the search is O(n log n) instead of
 * the reference O(n²), with identical results.
 *
 * Conventions: higher score = more likely member; `trScores` are the (shadow) members' scores and
 * `teScores` the (shadow) non-members'; the fitted rule predicts member iff `score ≥ threshold`.
 *
 * @param trScores - Member scores (non-empty, no NaN).
 * @param teScores - Non-member scores (non-empty, no NaN).
 * @returns The threshold and its balanced accuracy on this data.
 * @throws MetricsError when an array is empty, not an array of numbers, or holds NaN.
 * @see docs/protocol.md §3.1 "Threshold search" and §7 A4.
 */
export function fitThreshold(trScores: Scores, teScores: Scores): ThresholdFit {
  const tr = toNumbers('fitThreshold', 'trScores', trScores);
  const te = toNumbers('fitThreshold', 'teScores', teScores);
  return fitThresholdChecked(tr, te);
}

/** {@link fitThreshold} on validated, non-empty arrays (internal). */
export function fitThresholdChecked(tr: Float64Array, te: Float64Array): ThresholdFit {
  const trSorted = sortedAscending(tr);
  const teSorted = sortedAscending(te);
  let threshold = 0;
  let best = 0;
  for (const candidates of [tr, te]) {
    for (const v of candidates) {
      const trRatio = (tr.length - lowerBound(trSorted, v)) / tr.length;
      const teRatio = lowerBound(teSorted, v) / te.length;
      const acc = 0.5 * (trRatio + teRatio);
      if (acc > best) {
        threshold = v;
        best = acc;
      }
    }
  }
  return { threshold, accuracy: best };
}
