import { lowerBound, sortedAscending } from './score-blocks';
import { toNumbers, type Scores } from './validate';

/** A threshold fitted by SELENA's search: predict member iff `score ≥ threshold`. */
export interface SelThresholdFit {
  /** The chosen threshold (the smallest maximiser; 0 when both sets are empty). */
  threshold: number;
  /** The raw number of correct guesses `#{tr ≥ t} + #{te < t}` on the fitting data. */
  correct: number;
}

/**
 * SELENA's threshold search (SEL `attack/dsq_attack.py::threshold_based_inference_attack`): the
 * candidates are the values of `concat(trScores, teScores)` sorted **ascending**; the objective is
 * the **raw count** `#{tr ≥ v} + #{te < v}` (not balanced); a candidate wins only on a strict
 * improvement, starting from `threshold = 0, correct = 0`, so the smallest maximiser wins.
 * O(n log n) by binary search on sorted copies.
 *
 * Conventions: higher score = more likely member; `trScores` are known members, `teScores` known
 * (reference) non-members; predict member iff `score ≥ threshold`.
 *
 * @param trScores - Known member scores (non-empty, no NaN).
 * @param teScores - Known non-member scores (non-empty, no NaN).
 * @returns The threshold and its raw count of correct guesses.
 * @throws MetricsError when an array is empty, not an array of numbers, or holds NaN.
 * @see docs/protocol.md §3.1 "SEL variant"; §6 item 26; §7 A4.
 */
export function fitThresholdSel(trScores: Scores, teScores: Scores): SelThresholdFit {
  return fitThresholdSelChecked(toNumbers('fitThresholdSel', 'trScores', trScores), toNumbers('fitThresholdSel', 'teScores', teScores));
}

/** {@link fitThresholdSel} on validated arrays, which may be empty (internal). */
export function fitThresholdSelChecked(tr: Float64Array, te: Float64Array): SelThresholdFit {
  const trSorted = sortedAscending(tr);
  const teSorted = sortedAscending(te);
  const candidates = new Float64Array(tr.length + te.length);
  candidates.set(trSorted);
  candidates.set(teSorted, tr.length);
  candidates.sort();
  let threshold = 0;
  let best = 0;
  for (const v of candidates) {
    const correct = tr.length - lowerBound(trSorted, v) + lowerBound(teSorted, v);
    if (correct > best) {
      threshold = v;
      best = correct;
    }
  }
  return { threshold, correct: best };
}
