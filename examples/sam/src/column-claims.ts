import {
  combineColumns,
  compareEstimates,
  isNotRun,
  regime,
  rowMetrics,
  testabilityProblem,
  type Claim,
  type ClaimVerdict,
  type ColumnDecision,
  type Direction,
  type Estimate,
  type NotRun,
} from '@mia/experiments/reproduce';
import { DATASET_COLUMNS, type DatasetColumn } from './configs';
import type { ColumnEvaluation } from './evaluate-columns';
import { mean, sampleStd } from './table-cells';

/**
 * SAM-privacy's regime (docs/protocol.md §5.1 defaults): the paper's SGD models fit their training
 * sets (≈ 100 %) and generalise well above chance, so the attack accuracies it compares are on
 * overfitted models.
 */
export const SAM_REGIME = regime({
  why: 'SAM-privacy compares optimisers on models that fit their training sets (Table 1: SGD train ≈ 100 %) — the docs/protocol.md §5.1 defaults',
});

/**
 * Compared rows that must fit their training set like SGD: SAM is an optimiser the paper trains to
 * convergence (its Table 1 SAM models generalise better than SGD's), so a SAM model that stopped short
 * of fitting (e.g. 47 % train accuracy after a few epochs at ρ = 0.1) tests nothing about SAM.
 */
export const MUST_FIT: readonly string[] = ['SAM'];

/** One comparison of a column check: `a` vs `b` beyond `offset` in `direction`, with a 2-SE margin. */
export interface Comparison {
  readonly label: string;
  readonly a: Estimate;
  readonly b: Estimate;
  readonly direction: Direction;
  readonly offset?: number;
}

/** What a per-dataset check returns: the comparisons it rests on (all must hold) and extra evidence. */
export interface ColumnCheck {
  readonly comparisons: readonly Comparison[];
  readonly note?: string;
}

/** The test accuracy of a defense of a column with its SE (the runner's bootstrap, or binomial on the test set). */
export function testAccuracyOf(c: ColumnEvaluation, label: string): Estimate {
  const e = c.evaluations[label]!;
  const row = c.results.rows.find((r) => r.label === label);
  const se =
    row === undefined
      ? Math.sqrt(Math.max(0, e.testAccuracy * (1 - e.testAccuracy)) / (c.results.partition.sizes.target_test ?? NaN))
      : rowMetrics.testAccuracy.estimate({ ...row, testAccuracy: e.testAccuracy }, c.results).se;
  return { value: e.testAccuracy, ...(se === undefined ? {} : { se }) };
}

/**
 * An attack accuracy averaged over the attack splits, with an SE: the larger of the spread over the
 * splits (sample std / √k) and the binomial SE of a balanced accuracy on the evaluation half
 * (`sqrt(b(1−b)/(2·n))`, n = half the smaller of target_train and target_test per side).
 */
export function attackAccuracyOf(c: ColumnEvaluation, values: readonly number[]): Estimate {
  const b = mean(values);
  const s = c.results.partition.sizes;
  const nSide = Math.min(s.target_train ?? NaN, s.target_test ?? NaN) / 2;
  const binomial = Math.sqrt(Math.max(0, b * (1 - b)) / (2 * nSide));
  const spread = values.length > 1 ? sampleStd(values) / Math.sqrt(values.length) : 0;
  return { value: b, se: Math.max(binomial, spread) };
}

/** A relative change (x − y)/y with a delta-method SE (x and y independent). */
export function relativeChange(x: Estimate, y: Estimate): Estimate {
  const se = x.se === undefined || y.se === undefined ? undefined : Math.sqrt(x.se ** 2 + ((x.value / y.value) * y.se) ** 2) / Math.abs(y.value);
  return { value: (x.value - y.value) / y.value, ...(se === undefined ? {} : { se }) };
}

const combine = (vs: readonly ClaimVerdict[]): ClaimVerdict =>
  vs.includes('not testable') ? 'not testable' : vs.includes('does not hold') ? 'does not hold' : vs.every((v) => v === 'holds') ? 'holds' : 'within noise';

/**
 * A claim that `check`'s comparisons hold on every dataset column (docs/protocol.md §5.1): per column,
 * "not testable" when SGD is out of SAM's regime, a compared model collapsed or a compared SAM model did
 * not fit ({@link MUST_FIT}), else each comparison
 * decided with a 2-SE margin (any beyond 2 SE the wrong way → does not hold; all beyond 2 SE the right
 * way → holds; else within noise); columns that did not run are "not evaluated", so a subset gives
 * "partial". Columns `applies` excludes (e.g. no MemGuard row on CIFAR-10) are not part of the claim.
 */
export function claimOverColumns(
  statement: string,
  columns: Readonly<Record<DatasetColumn, ColumnEvaluation | NotRun>>,
  check: (evaluation: ColumnEvaluation, column: DatasetColumn) => ColumnCheck,
  applies: (column: DatasetColumn) => boolean = () => true,
  compared: readonly string[] = [],
): Claim {
  const decisions = DATASET_COLUMNS.filter(applies).map((column): ColumnDecision => {
    const c = columns[column];
    if (isNotRun(c)) return { column, verdict: 'not evaluated', evidence: c.notRun };
    const problem = testabilityProblem({
      results: c.results,
      undefended: 'SGD',
      compared: ['SGD', ...compared].filter((l) => c.results.rows.some((r) => r.label === l)),
      fitted: compared.filter((l) => MUST_FIT.includes(l)),
      regime: SAM_REGIME,
    });
    if (problem !== undefined) return { column, verdict: 'not testable', evidence: `not testable at this scale: ${problem}` };
    const r = check(c, column);
    const ds = r.comparisons.map((x) => ({
      x,
      d: compareEstimates(x.a, x.b, { direction: x.direction, format: 'pct', ...(x.offset === undefined ? {} : { offset: x.offset }) }),
    }));
    if (ds.length === 0) return { column, verdict: 'not evaluated', evidence: r.note ?? 'nothing to compare' };
    const verdict = combine(ds.map((d) => d.d.verdict));
    return {
      column,
      verdict,
      evidence: [...ds.map(({ x, d }) => `${x.label} ${d.evidence} (${d.verdict})`), ...(r.note === undefined ? [] : [r.note])].join(', '),
    };
  });
  return combineColumns(statement, decisions);
}
