import { aucOfBlocks, scoreBlocks, sortedAscending } from './score-blocks';
import { splitScores, type Membership, type Scores } from './validate';

/**
 * Area under the ROC curve in its rank form: the probability that a random member scores higher
 * than a random non-member, ties counted ½. Equals the Mann–Whitney `U / (n_members · n_nonMembers)`
 * and sklearn `roc_auc_score` (the trapezoid area under the tie-aware ROC).
 *
 * Conventions: higher score = more likely member; 0.5 = chance, 1 = perfect separation, 0 =
 * perfectly inverted. Runs in O(n log n); the sum is computed on integer counts, so it is exact.
 *
 * @param scores - One score per example (any numbers except NaN).
 * @param isMember - One label per example: `true`/`1` member, `false`/`0` non-member.
 * @returns The AUC in [0, 1].
 * @throws MetricsError on NaN scores, bad labels, empty input, a single class or different lengths.
 * @see docs/protocol.md §5 "AUC"; §3.1 "AUC".
 */
export function auc(scores: Scores, isMember: Membership): number {
  const { members, nonMembers } = splitScores('auc', scores, isMember);
  return aucOfBlocks(scoreBlocks(sortedAscending(members), sortedAscending(nonMembers)));
}
