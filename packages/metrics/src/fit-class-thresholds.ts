import { fitThresholdChecked, type ThresholdFit } from './fit-threshold';
import { groupByClass, labeledScores, resolveNumClasses } from './group-by-class';
import { MetricsError } from './metrics-error';
import { describe, type ClassLabels, type Scores } from './validate';

/** Options of {@link fitClassThresholds}. */
export interface ClassThresholdOptions {
  /** Number of classes. @default 1 + the largest label in the fitting data */
  numClasses?: number;
  /**
   * Threshold of a class missing from the fitting data: `'global'` (PROTOCOL A5, the recommended
   * fallback) or `'zero'` (the reference code's behaviour: numpy NaN accuracies leave it at 0).
   * @default 'global'
   */
  missingClass?: 'global' | 'zero';
}

/** Validates `options.missingClass` (internal). */
export function checkMissingClass(fn: string, missingClass: unknown): 'global' | 'zero' {
  if (missingClass === undefined || missingClass === 'global') return 'global';
  if (missingClass === 'zero') return 'zero';
  throw new MetricsError(`${fn}: missingClass must be 'global' or 'zero', got ${describe(missingClass)}`);
}

/** Per-class thresholds fitted by Song & Mittal's search, with the global fit used as fallback. */
export interface ClassThresholdFit {
  /** `thresholds[c]`: predict an example of class c member iff `score ≥ thresholds[c]`. */
  thresholds: Float64Array;
  /** The global threshold fitted on all classes together (reported separately, PROTOCOL A4). */
  global: ThresholdFit;
  /** Classes with no member or no non-member in the fitting data; they use `global.threshold` (or 0). */
  fallbackClasses: number[];
}

/**
 * Per-class threshold attack fitting (the default of SM, RL, CCLr, PASTr): for each class c,
 * {@link fitThreshold} on the scores of the (shadow) members and non-members labelled c.
 *
 * Deviation from the reference (PROTOCOL A5): a class missing from the members or the
 * non-members gives 0/0 there (numpy NaN, threshold stays 0); here it falls back to the global
 * threshold (`missingClass: 'zero'` restores the reference) and is listed in `fallbackClasses`,
 * so callers can report it.
 *
 * @param trScores - Member scores (shadow-model members), higher = more likely member.
 * @param trLabels - Their class labels (non-negative integers).
 * @param teScores - Non-member scores (shadow-model non-members).
 * @param teLabels - Their class labels.
 * @param options - {@link ClassThresholdOptions}.
 * @returns One threshold per class, the global fit and the fallback classes.
 * @throws MetricsError when a set is empty, has NaN scores or bad labels, lengths differ, a label
 *   is ≥ `numClasses`, or `missingClass` is not 'global' or 'zero'.
 * @see docs/protocol.md §3.1 "Per-class", "Edge case"; §7 A4, A5.
 */
export function fitClassThresholds(
  trScores: Scores,
  trLabels: ClassLabels,
  teScores: Scores,
  teLabels: ClassLabels,
  options: ClassThresholdOptions = {},
): ClassThresholdFit {
  const fn = 'fitClassThresholds';
  const tr = labeledScores(fn, 'trScores', trScores, 'trLabels', trLabels);
  const te = labeledScores(fn, 'teScores', teScores, 'teLabels', teLabels);
  const numClasses = resolveNumClasses(fn, [tr, te], options.numClasses);
  const missingClass = checkMissingClass(fn, options.missingClass);
  const global = fitThresholdChecked(tr.scores, te.scores);
  const trGroups = groupByClass(tr, numClasses);
  const teGroups = groupByClass(te, numClasses);
  const thresholds = new Float64Array(numClasses);
  const fallbackClasses: number[] = [];
  for (let c = 0; c < numClasses; c++) {
    const trClass = trGroups[c]!;
    const teClass = teGroups[c]!;
    if (trClass.length === 0 || teClass.length === 0) {
      thresholds[c] = missingClass === 'global' ? global.threshold : 0;
      fallbackClasses.push(c);
    } else {
      thresholds[c] = fitThresholdChecked(trClass, teClass).threshold;
    }
  }
  return { thresholds, global, fallbackClasses };
}
