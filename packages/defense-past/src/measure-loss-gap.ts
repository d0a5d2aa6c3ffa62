import { evaluate, type Classifier, type LabeledData } from '@mia/core';

/** Eval-mode losses and accuracies of a member and a non-member set. */
export interface LossGapMeasurement {
  /** Mean CE over the members `L_m`. */
  readonly memberLoss: number;
  /** Mean CE over the non-members `L_n`. */
  readonly nonMemberLoss: number;
  /** `G = |L_m − L_n|`. */
  readonly lossGap: number;
  readonly memberAccuracy: number;
  readonly nonMemberAccuracy: number;
}

/**
 * The loss gap `G = |mean_{S_m} CE − mean_{S_n} CE|` of a classifier in eval mode (PAST §3.1), with
 * the two accuracies. Creates no lasting tensor.
 * @param options.batchSize - Examples per forward pass. @default 256
 * @throws InvalidArgumentError on a bad batch size.
 * @see docs/protocol.md §5 "Loss gap"; PAST Fig. 1a, 2c, 10.
 */
export function measureLossGap(
  classifier: Classifier,
  members: LabeledData,
  nonMembers: LabeledData,
  options: { readonly batchSize?: number } = {},
): LossGapMeasurement {
  const m = evaluate(classifier, members, options);
  const n = evaluate(classifier, nonMembers, options);
  return { memberLoss: m.loss, nonMemberLoss: n.loss, lossGap: Math.abs(m.loss - n.loss), memberAccuracy: m.accuracy, nonMemberAccuracy: n.accuracy };
}
