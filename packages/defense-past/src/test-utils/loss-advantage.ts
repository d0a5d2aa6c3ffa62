import { evaluate, type Classifier, type LabeledData } from '@mia/core';

/** Loss-attack advantage: max over thresholds of TPR − FPR with score −loss (lower loss = member). */
export function lossAdvantage(memberLosses: Float32Array, nonMemberLosses: Float32Array): number {
  const all = [...Array.from(memberLosses, (l) => [l, 1] as const), ...Array.from(nonMemberLosses, (l) => [l, 0] as const)].sort((a, b) => a[0] - b[0]);
  let tp = 0;
  let fp = 0;
  let best = 0;
  for (let i = 0; i < all.length; i++) {
    if (all[i]![1] === 1) tp++;
    else fp++;
    if (i + 1 === all.length || all[i + 1]![0] !== all[i]![0]) best = Math.max(best, tp / memberLosses.length - fp / nonMemberLosses.length);
  }
  return best;
}

/** What the PAST studies report of a model: held-out loss gap, loss-attack advantage, accuracies. */
export interface PrivacyMeasurement {
  /** Mean held-out non-member CE − mean member CE (signed). */
  readonly lossGap: number;
  readonly advantage: number;
  readonly testAccuracy: number;
  readonly trainAccuracy: number;
}

/** Measures a classifier on its members and on held-out non-members (never the tuning set). */
export function measurePrivacy(model: Classifier, members: LabeledData, heldOut: LabeledData): PrivacyMeasurement {
  const m = evaluate(model, members);
  const n = evaluate(model, heldOut);
  return { lossGap: n.loss - m.loss, advantage: lossAdvantage(m.losses, n.losses), testAccuracy: n.accuracy, trainAccuracy: m.accuracy };
}
