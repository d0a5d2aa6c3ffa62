import { pairedDifferenceDf, pairedDifferenceSe, type PairedMetric } from '../run/paired-se';
import type { ExperimentResults } from '../run/results';
import type { RowMetric } from './row-metrics';
import { testabilityProblem, missingRows, type Convergence, type ExternalAttack, type Regime, type TestabilityInput } from '../run/testability';
import { cellOf } from './table-helpers';
import {
  isNotRun,
  type CellFormat,
  type Claim,
  type ColumnDecision,
  type Direction,
  type MeasuredCell,
  type ReproductionTable,
  type RunOutcome,
} from './types';
import { combineColumns, compareEstimates, decidedClaim, notEvaluated, notTestable, undecidedColumn, type ComparisonTest, type Estimate } from './verdicts';

/** Why a column of a claim cannot be tested (regime, collapse), or undefined when it can. */
export type ColumnGate = (column: string) => string | undefined;

/** Options of {@link claimForEveryColumn}. */
export interface EveryColumnOptions {
  readonly table: ReproductionTable;
  readonly statement: string;
  readonly rowA: string;
  readonly rowB: string;
  /** 'greater': the claim is A − B > offset; 'less': A − B < offset. */
  readonly direction: Direction;
  /** @default 0 */
  readonly offset?: number;
  /** 'non-inferiority' for a claim "A at most |offset| below B" (one-sided test, margin = offset). @default 'superiority' */
  readonly test?: ComparisonTest;
  /** Per-column testability (e.g. {@link regimeGate}); without one every measured column is testable. */
  readonly gate?: ColumnGate;
  /** The columns the claim is about. @default every column of the table */
  readonly columns?: readonly string[];
  /**
   * The SE of A − B in a column when known better than from the two cells' SEs (a paired bootstrap,
   * seed-aware SEs), with its source; undefined for a column → sqrt(seA² + seB²).
   */
  readonly differenceSe?: (column: string) => DifferenceSe | undefined;
}

/** A standard error of a difference A − B with where it comes from (e.g. "paired bootstrap"). */
export interface DifferenceSe {
  readonly se: number;
  readonly source: string;
  /** Degrees of freedom of `se` (finite over a few training seeds). @default Infinity */
  readonly df?: number;
}

/**
 * The paired SE of `rowA − rowB` in each column's run (docs/protocol.md §5.2), for
 * {@link EveryColumnOptions.differenceSe}: the paired bootstrap over the shared evaluation examples,
 * combined with the spread of the per-seed differences when the run is a `runSeeds` aggregate. A
 * column whose run has no paired SEs (older results, not run) gets undefined, so its comparison falls
 * back to sqrt(seA² + seB²).
 * @param rowA - A defense label of the runs (as in the results, not a table's renamed row).
 */
export function pairedColumnSe(
  runs: Readonly<Record<string, RunOutcome>>,
  rowA: string,
  rowB: string,
  metric: PairedMetric,
): (column: string) => DifferenceSe | undefined {
  return (column) => {
    const run = runs[column];
    if (run === undefined || isNotRun(run) || run.pairedSe === undefined) return undefined;
    if (!run.pairedSe.rows.includes(rowA) || !run.pairedSe.rows.includes(rowB)) return undefined;
    const se = pairedDifferenceSe(run, rowA, rowB, metric);
    if (se === undefined) return undefined;
    const seeds = run.pairedSe.method === 'seeds+paired-bootstrap' ? (run.pairedSe.seeds ?? run.trainingSeeds?.length ?? 0) : 1;
    const df = pairedDifferenceDf(run, rowA, rowB, metric);
    return {
      se,
      source: seeds > 1 ? `paired bootstrap combined over ${seeds} training seeds` : 'paired bootstrap, one training seed',
      ...(Number.isFinite(df) ? { df } : {}),
    };
  };
}

const differenceOptions = (d: DifferenceSe | undefined) =>
  d === undefined ? {} : { differenceSe: d.se, differenceSeSource: d.source, ...(d.df === undefined ? {} : { differenceDf: d.df }) };

const estimateOf = (cell: MeasuredCell): Estimate => ({
  value: cell.ours,
  ...(cell.se === undefined ? {} : { se: cell.se }),
  ...(cell.seSource === undefined ? {} : { seSource: cell.seSource }),
  ...(cell.df === undefined ? {} : { df: cell.df }),
});

/**
 * A claim that A vs B goes the claimed way in every column of a table (e.g. "P1(PAST) > P1(w/o) on
 * every dataset"), decided per column with a 2-SE margin on the cells' SEs and combined by
 * {@link combineColumns} (docs/protocol.md §5.1): a column without both values is "not evaluated",
 * one that fails its gate "not testable"; a strict subset decided → "partial".
 */
export function claimForEveryColumn(options: EveryColumnOptions): Claim {
  const { table, rowA, rowB } = options;
  const decisions = (options.columns ?? table.columns).map((column): ColumnDecision => {
    const a = cellOf(table, rowA, column);
    const b = cellOf(table, rowB, column);
    // A cell without our value says why its run did not happen; a row missing from the table is a missing comparator.
    if (a === undefined) return undecidedColumn(column, 'not-evaluated', `no row ${JSON.stringify(rowA)}`);
    if (a.notRun !== undefined) return undecidedColumn(column, 'not-run', a.notRun);
    if (b === undefined) return undecidedColumn(column, 'not-evaluated', `no row ${JSON.stringify(rowB)}`);
    if (b.notRun !== undefined) return undecidedColumn(column, 'not-run', b.notRun);
    const problem = options.gate?.(column);
    if (problem !== undefined) return undecidedColumn(column, 'not-testable', problem);
    const decision = compareEstimates(estimateOf(a), estimateOf(b), {
      direction: options.direction,
      format: table.format,
      labels: [rowA, rowB],
      ...(options.offset === undefined ? {} : { offset: options.offset }),
      ...(options.test === undefined ? {} : { test: options.test }),
      ...differenceOptions(options.differenceSe?.(column)),
    });
    return { column, ...decision };
  });
  return combineColumns(options.statement, decisions);
}

/** Options of {@link regimeGate}. */
export interface RegimeGateOptions {
  /** Column → the run behind it. */
  readonly runs: Readonly<Record<string, RunOutcome>>;
  /** Label of the undefended row of each run (undefined: skip the regime check, check only collapse). */
  readonly undefended: string | undefined;
  /** Labels of the compared rows in each run (per column when they differ, e.g. PAST Table 2). */
  readonly compared: readonly string[] | ((column: string) => readonly string[]);
  readonly regime: Regime;
  /** Number of classes when older results do not record it. */
  readonly classes?: number;
  /** 'privacy' (default): also not testable when the undefended attacks are saturated; 'utility': accuracy claims. */
  readonly kind?: 'privacy' | 'utility';
  /** See {@link TestabilityInput.convergence}. */
  readonly convergence?: Convergence;
  /** See {@link TestabilityInput.comparators} (per column when they differ). */
  readonly comparators?: readonly string[] | ((column: string) => readonly string[]);
  /** See {@link TestabilityInput.fitted}. */
  readonly fitted?: readonly string[];
  /** Attacks evaluated outside the runner on each column's undefended model (see {@link TestabilityInput.extraAttacks}). */
  readonly extraAttacks?: (column: string) => readonly ExternalAttack[];
}

/** A {@link ColumnGate} checking each column's run with {@link testabilityProblem}. */
export function regimeGate(options: RegimeGateOptions): ColumnGate {
  return (column) => {
    const run = options.runs[column];
    if (run === undefined || isNotRun(run)) return undefined;
    const compared = typeof options.compared === 'function' ? options.compared(column) : options.compared;
    const comparators = typeof options.comparators === 'function' ? options.comparators(column) : options.comparators;
    return testabilityProblem({
      results: run,
      undefended: options.undefended,
      compared,
      regime: options.regime,
      ...(options.classes === undefined ? {} : { classes: options.classes }),
      ...(options.kind === undefined ? {} : { kind: options.kind }),
      ...(options.convergence === undefined ? {} : { convergence: options.convergence }),
      ...(comparators === undefined ? {} : { comparators }),
      ...(options.fitted === undefined ? {} : { fitted: options.fitted }),
      ...(options.extraAttacks === undefined ? {} : { extraAttacks: options.extraAttacks(column) }),
    });
  };
}

/** Options of {@link compareRows}. */
export interface CompareRowsOptions {
  readonly statement: string;
  readonly run: RunOutcome;
  /** Labels of the two rows compared: the claim is metric(A) − metric(B) beyond `offset` in `direction`. */
  readonly rowA: string;
  readonly rowB: string;
  readonly metric: RowMetric;
  readonly direction: Direction;
  readonly offset?: number;
  readonly format: CellFormat;
  readonly regime: Regime;
  /** Label of the undefended row whose regime gates the claim. */
  readonly undefended: string | undefined;
  readonly classes?: number;
  /** 'privacy' (default): also not testable when the undefended attacks are saturated; 'utility': accuracy claims. */
  readonly kind?: 'privacy' | 'utility';
  /** The SE of metric(A) − metric(B) when known better than from the two rows' SEs (paired, seed-aware). */
  readonly differenceSe?: DifferenceSe;
  /** 'non-inferiority' for "A at most |offset| below B" (one-sided test). @default 'superiority' */
  readonly test?: ComparisonTest;
  /** See {@link TestabilityInput.convergence}. */
  readonly convergence?: Convergence;
  /** See {@link TestabilityInput.comparators}. */
  readonly comparators?: readonly string[];
  /** See {@link TestabilityInput.extraAttacks}. */
  readonly extraAttacks?: readonly ExternalAttack[];
}

/** A claim comparing two rows of one run with a 2-SE margin, gated by the regime (docs/protocol.md §5.1). */
export function compareRows(o: CompareRowsOptions): Claim {
  if (isNotRun(o.run)) return notEvaluated(o.statement, o.run.notRun);
  const results: ExperimentResults = o.run;
  const missing = missingRows(results, [o.rowA, o.rowB, ...(o.undefended === undefined ? [] : [o.undefended])]);
  if (missing.length > 0) return notEvaluated(o.statement, `no row ${missing.map((m) => JSON.stringify(m)).join(', ')} in this run`);
  const problem = testabilityProblem({
    results,
    undefended: o.undefended,
    compared: [o.rowA, o.rowB],
    regime: o.regime,
    ...(o.classes === undefined ? {} : { classes: o.classes }),
    ...(o.kind === undefined ? {} : { kind: o.kind }),
    ...(o.convergence === undefined ? {} : { convergence: o.convergence }),
    ...(o.comparators === undefined ? {} : { comparators: o.comparators }),
    ...(o.extraAttacks === undefined ? {} : { extraAttacks: o.extraAttacks }),
  });
  if (problem !== undefined) return notTestable(o.statement, problem);
  const row = (label: string) => results.rows.find((r) => r.label === label)!;
  const a = o.metric.estimate(row(o.rowA), results);
  const b = o.metric.estimate(row(o.rowB), results);
  if (!Number.isFinite(a.value) || !Number.isFinite(b.value)) return notEvaluated(o.statement, `${o.metric.name} not measured for ${o.rowA} or ${o.rowB}`);
  const d = compareEstimates(a, b, {
    direction: o.direction,
    format: o.format,
    labels: [o.rowA, o.rowB],
    ...(o.offset === undefined ? {} : { offset: o.offset }),
    ...(o.test === undefined ? {} : { test: o.test }),
    ...differenceOptions(o.differenceSe),
  });
  return decidedClaim(o.statement, { ...d, evidence: `${o.metric.name}: ${d.evidence}` });
}
