import { MetricsError } from './metrics-error';
import { checkNumber, describe } from './validate';

/**
 * P1 score (Paul et al. 2021): the harmonic mean of test accuracy and `1 − advantage`,
 * `P1 = 2·Acc·(1 − Adv) / (Acc + (1 − Adv))`. Higher is a better privacy-utility trade-off.
 *
 * `advantage` is the **highest** advantage among all attacks run (PROTOCOL A31); pass the list of
 * per-attack advantages and the maximum is taken here. Nothing is clamped: a negative advantage
 * gives `1 − Adv > 1`. When `Acc + (1 − Adv) = 0` (accuracy 0 and advantage 1) the harmonic mean
 * is 0.
 *
 * @param testAccuracy - Top-1 accuracy of the target model on its non-member test set, in [0, 1].
 * @param advantage - Attack advantage `TPR − FPR` in [−1, 1], or a non-empty list of them (max is used).
 * @returns The P1 score.
 * @throws MetricsError when `testAccuracy` is outside [0, 1], an advantage is outside [−1, 1] or
 *   not finite, or the list is empty.
 * @see docs/protocol.md §5 "P1 score" (CCL Eq. 13, PAST Eq. 6; CCLr `utils.py::p1_score`), §7 A31.
 */
export function p1Score(testAccuracy: number, advantage: number | readonly number[]): number {
  const acc = checkNumber('p1Score', 'testAccuracy', testAccuracy, 0, 1);
  let adv: number;
  if (typeof advantage === 'number') {
    adv = checkNumber('p1Score', 'advantage', advantage, -1, 1);
  } else if (Array.isArray(advantage) && advantage.length > 0) {
    adv = -Infinity;
    advantage.forEach((a: unknown, i) => {
      adv = Math.max(adv, checkNumber('p1Score', `advantage[${i}]`, a, -1, 1));
    });
  } else {
    throw new MetricsError(`p1Score: advantage must be a number in [-1, 1] or a non-empty array of them, got ${describe(advantage)}`);
  }
  const privacy = 1 - adv;
  const denominator = acc + privacy;
  return denominator === 0 ? 0 : (2 * acc * privacy) / denominator;
}
