import { vertexPoint, type OperatingPoint } from './operating-point';
import { checkRocCurve, type RocCurve } from './roc-curve';

/** The ROC vertex with the largest advantage, and its advantage and balanced accuracy. */
export interface BestOperatingPoint extends OperatingPoint {
  /** `tpr − fpr` at this vertex (≥ 0, since the (0, 0) vertex gives 0). */
  advantage: number;
  /** `½·(tpr + (1 − fpr))` at this vertex. */
  balancedAccuracy: number;
}

/**
 * The best threshold of a ROC curve: the vertex maximising `TPR − FPR` (equivalently the balanced
 * accuracy `½·(TPR + 1 − FPR)`, PMr's "balanced accuracy from ROC"). On ties the first vertex in
 * curve order wins, i.e. the highest threshold. This is an optimistic, best-threshold number chosen
 * on the evaluation data itself; do not mix it with a shadow-fitted threshold's accuracy.
 *
 * @param roc - A curve from {@link rocCurve}.
 * @returns The vertex (threshold: predict member iff `score ≥ threshold`), its rates and counts,
 *   its advantage and balanced accuracy.
 * @throws MetricsError when `roc` is not a RocCurve.
 * @see docs/protocol.md §5 "Attack advantage", "Balanced accuracy from ROC".
 */
export function bestOperatingPoint(roc: RocCurve): BestOperatingPoint {
  const curve = checkRocCurve('bestOperatingPoint', roc);
  let best = 0;
  let bestAdvantage = -Infinity;
  for (let k = 0; k < curve.fpr.length; k++) {
    const advantage = curve.tpr[k]! - curve.fpr[k]!;
    if (advantage > bestAdvantage) {
      bestAdvantage = advantage;
      best = k;
    }
  }
  const point = vertexPoint(curve, best);
  return { ...point, advantage: bestAdvantage, balancedAccuracy: 0.5 * (point.tpr + (1 - point.fpr)) };
}
