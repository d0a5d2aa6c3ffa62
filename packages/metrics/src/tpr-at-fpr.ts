import { vertexPoint, type RateCounts } from './operating-point';
import { checkRocCurve, type RocCurve } from './roc-curve';
import { checkNumber } from './validate';

/** The TPR at a target FPR, with the vertex that achieves it (counts kept for {@link rateIntervals}). */
export interface TprAtFprResult extends RateCounts {
  /** The target FPR that was asked for (a fraction). */
  fpr: number;
  /** The TPR of the chosen vertex (a fraction). */
  tpr: number;
  /** The FPR of the chosen vertex, `≤ fpr`. */
  achievedFpr: number;
  /** The vertex threshold: predict member iff `score ≥ threshold` (`+Infinity` = predict nobody). */
  threshold: number;
}

/** Options of {@link tprAtFpr}. */
export interface TprAtFprOptions {
  /**
   * Use Carlini et al.'s strict `FPR < target` instead of PMm's `FPR ≤ target` (PROTOCOL A30
   * recommends `≤`). When no vertex is strictly below the target (target 0), the `(0, 0)` vertex is used.
   * @default false
   */
  strict?: boolean;
}

/**
 * TPR at a target false-positive rate, read off an exact step ROC with the `≤` convention: the
 * largest TPR among the vertices whose FPR is `≤ fpr`, no interpolation (PMm `audit.py`). The
 * vertex `(0, 0)` always qualifies, so at `fpr = 0` the result is the TPR reachable with no false
 * positive at all (often 0). With `n` non-members, any `fpr < 1/n` behaves like `fpr = 0`.
 *
 * Conventions: rates are fractions (pass `0.001` for 0.1 % FPR); the returned `threshold` means
 * "predict member iff `score ≥ threshold`" (`+Infinity` = predict nobody).
 *
 * @param roc - A curve from {@link rocCurve}.
 * @param fpr - The target FPR in [0, 1].
 * @param options - {@link TprAtFprOptions}.
 * @returns The TPR, the achieved FPR (≤ target), the threshold, and the counts behind them.
 * @throws MetricsError when `roc` is not a RocCurve or `fpr` is outside [0, 1] or NaN.
 * @see docs/protocol.md §5 "TPR @ x% FPR" and §7 A30 (`≤`, step, no interpolation).
 */
export function tprAtFpr(roc: RocCurve, fpr: number, options: TprAtFprOptions = {}): TprAtFprResult {
  const curve = checkRocCurve('tprAtFpr', roc);
  const target = checkNumber('tprAtFpr', 'fpr', fpr, 0, 1);
  // FPR is non-decreasing along the curve and TPR too, so the last vertex with fpr ≤ target
  // carries the largest TPR among the qualifying vertices. Vertex 0 is the fallback.
  let lo = 0;
  let hi = curve.fpr.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (options.strict === true ? curve.fpr[mid]! < target : curve.fpr[mid]! <= target) lo = mid;
    else hi = mid - 1;
  }
  const { threshold, tpr, fpr: achievedFpr, truePositives, falsePositives, numMembers, numNonMembers } = vertexPoint(curve, lo);
  return { fpr: target, tpr, achievedFpr, threshold, truePositives, falsePositives, numMembers, numNonMembers };
}
