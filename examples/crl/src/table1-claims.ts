import { combineColumns, compareEstimates, undecidedColumn, type Claim, type ColumnDecision, type Direction } from '@mia/experiments/reproduce';
import { AUC_COLUMNS, paperValue, type Approach, type Table1Column } from './paper-values';

/** A cell getter of one (dataset, model) group: our value or the paper's, undefined when missing. */
export type CellGetter = (approach: Approach, column: Table1Column) => number | undefined;

/** The standard error of a cell of ours (undefined when none is known: the comparison is then not testable). */
export type SeGetter = (approach: Approach, column: Table1Column) => number | undefined;

/** One comparison of a claim in a group: metric `column` of `rowA` vs `rowB` beyond `offset` in `direction`. */
interface Comparison {
  readonly rowA: Approach;
  readonly rowB: Approach;
  readonly column: Table1Column;
  readonly direction: Direction;
  readonly offset?: number;
}

/** A claim test on one group: the comparisons it rests on (all must hold), or undefined when the cells it needs are missing. */
type GroupTest = (get: CellGetter) => readonly Comparison[] | undefined;

/** A measured group: where it is, how to read its cells and their SEs, and why it is not testable (regime). */
export interface MeasuredGroup {
  readonly dataset: string;
  readonly model: string;
  readonly get: CellGetter;
  readonly se?: SeGetter;
  /** Why the group's models are not in CRL's regime for a privacy claim (docs/protocol.md §5.1, saturation included), or undefined. */
  readonly gate?: string;
  /** Why it is not testable for a utility (accuracy) claim, which saturated attacks do not affect, or undefined. */
  readonly utilityGate?: string;
  /**
   * Per comparator (a baseline a privacy claim compares CRL against): why a claim against it is not
   * testable — the group's `gate`, or the comparator does not lower leakage below CE's (docs/protocol.md
   * §5.1, "comparator ineffective"). A comparator absent from the record is testable. Without the
   * record, `gate` applies.
   */
  readonly comparatorGate?: Partial<Record<Approach, string>>;
}

const has = (get: CellGetter, a: Approach, c: Table1Column) => get(a, c) !== undefined;

/** `rowA`'s AUC < `rowB`'s on every attack column both have. */
function everyAuc(rowA: Approach, rowB: Approach): GroupTest {
  return (get) => {
    const cs = AUC_COLUMNS.filter((c) => has(get, rowA, c) && has(get, rowB, c)).map((column): Comparison => ({ rowA, rowB, column, direction: 'less' }));
    return cs.length === 0 ? undefined : cs;
  };
}

/** CRL's AUC < CE's on every attack and test accuracy ≥ CE's − 2 points. */
const crlBeatsCe: GroupTest = (get) => {
  const aucs = everyAuc('CRL', 'CE')(get);
  if (aucs === undefined || !has(get, 'CRL', 'Test Acc.') || !has(get, 'CE', 'Test Acc.')) return undefined;
  return [...aucs, { rowA: 'CRL', rowB: 'CE', column: 'Test Acc.', direction: 'greater', offset: -0.02 }];
};

/** Test accuracy of `a` above (or below) every row of `others`. */
const accuracyVs =
  (a: Approach, others: readonly Approach[], direction: Direction): GroupTest =>
  (get) =>
    has(get, a, 'Test Acc.') && others.every((o) => has(get, o, 'Test Acc.'))
      ? others.map((o): Comparison => ({ rowA: a, rowB: o, column: 'Test Acc.', direction }))
      : undefined;

/**
 * The claims of Table 1 with their tests: statement, test, and whether the paper's own numbers are
 * compared strictly (`>`/`<`) or not (`≥`/`≤`) for the context line.
 */
export const TABLE1_CLAIMS: ReadonlyArray<readonly [string, GroupTest, boolean, 'privacy' | 'utility', Approach?]> = [
  [
    "CRL's AUCs < CE's on every attack (NN, Entropy, M-Entropy, Grad-x) at test accuracy ≥ CE's − 2 points (our criterion: the 2-point tolerance), for every model and dataset",
    crlBeatsCe,
    true,
    'privacy',
  ],
  ["CRL's AUCs ≤ RelaxLoss's on every attack, for every model and dataset", everyAuc('CRL', 'RelaxLoss'), false, 'privacy', 'RelaxLoss'],
  ["CRL's AUCs ≤ AdvReg's on every attack, for every model and dataset", everyAuc('CRL', 'AdvReg'), false, 'privacy', 'AdvReg'],
  ["CRL's test accuracy ≥ RelaxLoss's and AdvReg's, for every model and dataset", accuracyVs('CRL', ['RelaxLoss', 'AdvReg'], 'greater'), false, 'utility'],
  ["AdvReg costs utility: AdvReg's test accuracy < CE's, for every model and dataset", accuracyVs('AdvReg', ['CE'], 'less'), true, 'utility'],
];

/** Whether the paper's own numbers satisfy every comparison (no SEs there: plain inequalities, for context only). */
function paperHolds(cs: readonly Comparison[], get: CellGetter, strict: boolean): boolean {
  return cs.every((c) => {
    const m = (c.direction === 'greater' ? 1 : -1) * (get(c.rowA, c.column)! - get(c.rowB, c.column)! - (c.offset ?? 0));
    return strict ? m > 0 : m >= 0;
  });
}

/**
 * Evaluates one Table 1 claim on every group of the paper (docs/protocol.md §5.1): each comparison of
 * each measured group (column "<dataset>/<model> <metric>") decided with a 2-SE margin, a group that
 * fails CRL's regime "not testable", one that did not run "not evaluated"; combined by
 * `combineColumns` (a failure after Holm's step-down over the comparisons → does not hold; every
 * decided one holds and some groups not run → partial). For context, the claim on the paper's own
 * numbers (plain inequalities: they have no SEs), which decides nothing. A privacy claim against a
 * `comparator` is gated by that group's `comparatorGate` (the comparator must lower leakage).
 */
export function table1Claim(
  statement: string,
  test: GroupTest,
  measured: readonly MeasuredGroup[],
  paperGroups: ReadonlyArray<readonly [string, string]>,
  strict = true,
  kind: 'privacy' | 'utility' = 'privacy',
  comparator?: Approach,
): Claim {
  const paper = paperGroups.flatMap(([d, m]) => {
    const get: CellGetter = (a, c) => paperValue(d, m, a, c);
    const cs = test(get);
    return cs === undefined ? [] : [paperHolds(cs, get, strict)];
  });
  const paperNote = `paper's own numbers (plain inequalities, no SEs): holds in ${paper.filter(Boolean).length}/${paper.length} groups`;
  const name = (d: string, m: string) => `${d}/${m}`;
  const decisions: ColumnDecision[] = measured.flatMap((g): ColumnDecision[] => {
    const group = name(g.dataset, g.model);
    const gate = kind === 'utility' ? g.utilityGate : comparator !== undefined && g.comparatorGate !== undefined ? g.comparatorGate[comparator] : g.gate;
    if (gate !== undefined) return [undecidedColumn(group, 'not-testable', gate)];
    const cs = test(g.get);
    if (cs === undefined) return [undecidedColumn(group, 'not-evaluated', 'cells missing')];
    return cs.map((c): ColumnDecision => {
      const se = (a: Approach) => g.se?.(a, c.column);
      const d = compareEstimates(
        { value: g.get(c.rowA, c.column)!, ...(se(c.rowA) === undefined ? {} : { se: se(c.rowA)! }) },
        { value: g.get(c.rowB, c.column)!, ...(se(c.rowB) === undefined ? {} : { se: se(c.rowB)! }) },
        { direction: c.direction, format: 'pct', labels: [c.rowA, c.rowB], ...(c.offset === undefined ? {} : { offset: c.offset }) },
      );
      return { column: `${group} ${c.column.replace(' AUC', '')}`, ...d };
    });
  });
  const seen = new Set(measured.map((g) => name(g.dataset, g.model)));
  for (const [d, m] of paperGroups) if (!seen.has(name(d, m))) decisions.push(undecidedColumn(name(d, m), 'not-run', 'not run here'));
  if (decisions.length === 0) return { statement, verdict: 'not evaluated', evidence: `no group measured here (${paperNote})` };
  const combined = combineColumns(statement, decisions);
  return { ...combined, evidence: `${combined.evidence}. For comparison, ${paperNote}.` };
}
