import { MetricsError } from './metrics-error';
import { checkInteger, toLabels, toNumbers, type ClassLabels, type Scores } from './validate';

/** Validated scores with their class labels (internal). */
export interface LabeledScores {
  scores: Float64Array;
  labels: Int32Array;
}

/** Validates a `(scores, labels)` pair; `scores` may be empty only when `allowEmpty` (internal). */
export function labeledScores(fn: string, scoresName: string, scores: Scores, labelsName: string, labels: ClassLabels, allowEmpty = false): LabeledScores {
  const values = toNumbers(fn, scoresName, scores, { allowEmpty });
  return { scores: values, labels: toLabels(fn, labelsName, labels, scoresName, values.length) };
}

/**
 * The number of classes: `numClasses` when given (checked against every label), else
 * `1 + max label` over all sets (internal).
 */
export function resolveNumClasses(fn: string, sets: readonly LabeledScores[], numClasses: number | undefined): number {
  let maxLabel = -1;
  for (const set of sets) for (const label of set.labels) maxLabel = Math.max(maxLabel, label);
  if (numClasses === undefined) return maxLabel + 1;
  checkInteger(fn, 'numClasses', numClasses, 1);
  if (maxLabel >= numClasses) {
    throw new MetricsError(`${fn}: every label must be < numClasses = ${numClasses}, got label ${maxLabel}`);
  }
  return numClasses;
}

/** Scores split per class: `result[c]` holds the scores of label c, in input order (internal). */
export function groupByClass(set: LabeledScores, numClasses: number): Float64Array[] {
  const counts = new Int32Array(numClasses);
  for (const label of set.labels) counts[label]!++;
  const groups = Array.from(counts, (count) => new Float64Array(count));
  const fill = new Int32Array(numClasses);
  set.labels.forEach((label, i) => {
    groups[label]![fill[label]!++] = set.scores[i]!;
  });
  return groups;
}
