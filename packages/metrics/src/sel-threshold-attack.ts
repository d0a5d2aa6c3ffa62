import { checkMissingClass, type ClassThresholdOptions } from './fit-class-thresholds';
import { fitThresholdSelChecked } from './fit-threshold-sel';
import { groupByClass, labeledScores, resolveNumClasses, type LabeledScores } from './group-by-class';
import { MetricsError } from './metrics-error';
import { describe, type ClassLabels, type Scores } from './validate';

/** Member and non-member scores with their class labels. */
export interface LabeledMembershipScores {
  memberScores: Scores;
  memberLabels: ClassLabels;
  nonMemberScores: Scores;
  nonMemberLabels: ClassLabels;
}

/** Result of {@link selThresholdAttack}. */
export interface SelThresholdAttackResult {
  /** `max(globalAccuracy, classAccuracy)`, SELENA's reported number (optimistic: chosen post hoc). */
  accuracy: number;
  /** Plain accuracy `(TP + TN) / (|members| + |non-members|)` of the global threshold on the evaluation data. */
  globalAccuracy: number;
  /** Plain accuracy of the per-class thresholds on the evaluation data. */
  classAccuracy: number;
  /** The global threshold fitted on the known data. */
  globalThreshold: number;
  /** One threshold per class, fitted on the known data. */
  classThresholds: Float64Array;
  /** Classes with no known member and no known non-member; they use the global threshold (or 0). */
  fallbackClasses: number[];
}

/**
 * SELENA's threshold attack (used by the SharpReg paper): fit a global and per-class thresholds
 * on known data with {@link fitThresholdSel} (raw count, smallest maximiser), measure both by plain
 * accuracy on the evaluation data, and report the larger. SEL truncates the evaluation sets to equal
 * sizes, so plain accuracy equals balanced accuracy there; pass equal-size sets to match it.
 *
 * Deviation (PROTOCOL A5): a class with no known example at all gets the global threshold instead of
 * SEL's 0 (`missingClass: 'zero'` restores SEL); a class with only one side present keeps SEL's
 * behaviour (its count is still defined).
 *
 * @param known - Known members (`tr`) and reference non-members (`ref`) with labels; fitting data.
 * @param evaluation - Evaluation members and non-members with labels.
 * @param options - {@link ClassThresholdOptions}.
 * @returns Both accuracies, their maximum, and the fitted thresholds.
 * @throws MetricsError on empty sets, NaN scores, bad labels or different lengths.
 * @see docs/protocol.md §3.1 "SEL variant", §6 item 26, §7 A4 (flag as optimistic).
 */
export function selThresholdAttack(
  known: LabeledMembershipScores,
  evaluation: LabeledMembershipScores,
  options: ClassThresholdOptions = {},
): SelThresholdAttackResult {
  const fn = 'selThresholdAttack';
  const [knownMembers, knownNonMembers] = membershipSets(fn, 'known', known);
  const [evalMembers, evalNonMembers] = membershipSets(fn, 'evaluation', evaluation);
  const numClasses = resolveNumClasses(fn, [knownMembers, knownNonMembers, evalMembers, evalNonMembers], options.numClasses);
  const missingClass = checkMissingClass(fn, options.missingClass);
  const globalThreshold = fitThresholdSelChecked(knownMembers.scores, knownNonMembers.scores).threshold;
  const memberGroups = groupByClass(knownMembers, numClasses);
  const nonMemberGroups = groupByClass(knownNonMembers, numClasses);
  const classThresholds = new Float64Array(numClasses);
  const fallbackClasses: number[] = [];
  for (let c = 0; c < numClasses; c++) {
    if (memberGroups[c]!.length + nonMemberGroups[c]!.length === 0) {
      classThresholds[c] = missingClass === 'global' ? globalThreshold : 0;
      fallbackClasses.push(c);
    } else {
      classThresholds[c] = fitThresholdSelChecked(memberGroups[c]!, nonMemberGroups[c]!).threshold;
    }
  }
  const total = evalMembers.scores.length + evalNonMembers.scores.length;
  const globalAccuracy = countCorrect(evalMembers, evalNonMembers, () => globalThreshold) / total;
  const classAccuracy = countCorrect(evalMembers, evalNonMembers, (label) => classThresholds[label]!) / total;
  return {
    accuracy: Math.max(globalAccuracy, classAccuracy),
    globalAccuracy,
    classAccuracy,
    globalThreshold,
    classThresholds,
    fallbackClasses,
  };
}

function membershipSets(fn: string, name: string, data: LabeledMembershipScores): [LabeledScores, LabeledScores] {
  if (typeof data !== 'object' || data === null) {
    throw new MetricsError(`${fn}: ${name} must be {memberScores, memberLabels, nonMemberScores, nonMemberLabels}, got ${describe(data)}`);
  }
  return [
    labeledScores(fn, `${name}.memberScores`, data.memberScores, `${name}.memberLabels`, data.memberLabels),
    labeledScores(fn, `${name}.nonMemberScores`, data.nonMemberScores, `${name}.nonMemberLabels`, data.nonMemberLabels),
  ];
}

/** `#{members ≥ their class threshold} + #{non-members < their class threshold}`. */
function countCorrect(members: LabeledScores, nonMembers: LabeledScores, thresholdOf: (label: number) => number): number {
  let count = 0;
  for (let i = 0; i < members.scores.length; i++) if (members.scores[i]! >= thresholdOf(members.labels[i]!)) count++;
  for (let i = 0; i < nonMembers.scores.length; i++) if (nonMembers.scores[i]! < thresholdOf(nonMembers.labels[i]!)) count++;
  return count;
}
