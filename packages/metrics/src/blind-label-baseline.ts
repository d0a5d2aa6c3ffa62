import { delongAuc } from './delong-auc';
import { MetricsError } from './metrics-error';
import { foldsOf } from './cross-fit-folds';
import type { BlindBaselineOptions, BlindBaselineResult } from './blind-baseline';
import { checkInteger, describe, toMembership } from './validate';

/**
 * The blind baseline of an audit that has no record content, only labels (a score file): each
 * example is scored by the log-odds of membership of its class, counted on the other folds with one
 * pseudo-count per side (the logistic regression on one-hot labels, in closed form), cross-fitted
 * over K folds stratified by membership (not by class: see `foldsOf`), with the fold-averaged AUC
 * and conservative SE of `blindBaseline`. O(n): it scales to millions of rows.
 *
 * @param labels - One integer class label per example.
 * @param isMember - `1`/`true` member, `0`/`false` non-member.
 * @param options - `folds`, `seed` and `confidence` of {@link BlindBaselineOptions}.
 * @returns Out-of-fold scores and their AUC with a DeLong interval (`numFeatures`: the number of distinct labels).
 * @throws MetricsError when the lengths differ, a label is not an integer, or there are fewer than 2 members or non-members.
 * @see `blindBaseline`; Das, Zhang & Tramèr 2024.
 */
export function blindLabelBaseline(
  labels: ArrayLike<number>,
  isMember: ArrayLike<number | boolean>,
  options: Pick<BlindBaselineOptions, 'folds' | 'seed' | 'confidence'> = {},
): BlindBaselineResult {
  const fn = 'blindLabelBaseline';
  if (labels === null || typeof labels !== 'object' || typeof labels.length !== 'number')
    throw new MetricsError(`${fn}: labels must be an array of integers, got ${describe(labels)}`);
  const membership = toMembership(fn, isMember, labels.length, 'labels');
  const classes = new Map<number, number>();
  const classOf = Int32Array.from({ length: labels.length }, (_, i) => {
    const y = labels[i]!;
    if (!Number.isInteger(y)) throw new MetricsError(`${fn}: labels[${i}] must be an integer, got ${describe(y)}`);
    if (!classes.has(y)) classes.set(y, classes.size);
    return classes.get(y)!;
  });
  const members = membership.reduce((s, v) => s + v, 0);
  const smaller = Math.min(members, labels.length - members);
  if (smaller < 2) throw new MetricsError(`${fn}: isMember must hold at least 2 members and 2 non-members, got ${members} and ${labels.length - members}`);
  const folds = Math.min(checkInteger(fn, 'folds', options.folds ?? 2, 2), smaller);
  const fold = foldsOf(membership, folds, checkInteger(fn, 'seed', options.seed ?? 0, Number.MIN_SAFE_INTEGER));
  const counts = Array.from({ length: folds }, () => [new Float64Array(classes.size), new Float64Array(classes.size)] as const);
  membership.forEach((m, i) => (counts[fold[i]!]![m === 1 ? 0 : 1][classOf[i]!]! += 1));
  const total = [new Float64Array(classes.size), new Float64Array(classes.size)] as const;
  for (const [m, n] of counts) m.forEach((v, c) => ((total[0][c]! += v), (total[1][c]! += n[c]!)));
  const scores = Float64Array.from(membership, (_, i) => {
    const [m, n] = counts[fold[i]!]!;
    const c = classOf[i]!;
    return Math.log((total[0][c]! - m[c]! + 1) / (total[1][c]! - n[c]! + 1));
  });
  return {
    scores,
    foldOf: fold,
    auc: delongAuc(scores, membership, { confidence: options.confidence ?? 0.95, groups: fold }),
    folds,
    numFeatures: classes.size,
  };
}
