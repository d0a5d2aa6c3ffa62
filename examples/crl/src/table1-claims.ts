import { combineColumns, compareEstimates, type Claim, type ClaimVerdict, type ColumnDecision, type Direction } from '@mia/experiments/reproduce';
import { AUC_COLUMNS, paperValue, type Approach, type Table1Column } from './paper-values';

/** A cell getter of one (dataset, model) group: our value or the paper's, undefined when missing. */
export type CellGetter = (approach: Approach, column: Table1Column) => number | undefined;

/** The standard error of a cell of ours (undefined for the paper's values, which are then compared strictly). */
export type SeGetter = (approach: Approach, column: Table1Column) => number | undefined;

/** One group's verdict on a claim: undefined when the cells it needs are missing. */
interface GroupVerdict {
  readonly ok: ClaimVerdict | undefined;
  readonly detail: string;
}

/** A claim test on one group. */
type GroupTest = (get: CellGetter, se?: SeGetter) => GroupVerdict;

/** A measured group: where it is, how to read its cells and their SEs, and why it is not testable (regime). */
export interface MeasuredGroup {
  readonly dataset: string;
  readonly model: string;
  readonly get: CellGetter;
  readonly se?: SeGetter;
  /** Why the group's models are not in CRL's regime (docs/protocol.md §5.1), or undefined. */
  readonly gate?: string;
}

/** a vs b in `direction` beyond `offset`: with a 2-SE margin when both SEs are known (ours), strictly otherwise (the paper's). */
function decide(a: number, b: number, seA: number | undefined, seB: number | undefined, direction: Direction, offset = 0, strict = true): ClaimVerdict {
  if (seA !== undefined && seB !== undefined)
    return compareEstimates({ value: a, se: seA }, { value: b, se: seB }, { direction, offset, format: 'pct' }).verdict;
  const m = (direction === 'greater' ? 1 : -1) * (a - b - offset);
  return m > 0 || (!strict && m === 0) ? 'holds' : 'does not hold';
}

/** Several verdicts of one group into one: any "does not hold" → does not hold, all hold → holds, else within noise. */
const all = (vs: readonly ClaimVerdict[]): ClaimVerdict | undefined =>
  vs.length === 0 ? undefined : vs.includes('does not hold') ? 'does not hold' : vs.every((v) => v === 'holds') ? 'holds' : 'within noise';
const mark = (v: ClaimVerdict) => (v === 'holds' ? '' : v === 'does not hold' ? ' ✗' : ' ~');

const pct = (v: number) => (100 * v).toFixed(1);
/** " (Δ = −8.2 ± 1.2)" in points when both SEs are known (ours), else "" (the paper's values have none). */
const delta = (a: number, b: number, seA: number | undefined, seB: number | undefined) =>
  seA === undefined || seB === undefined ? '' : ` (Δ = ${a - b < 0 ? '−' : '+'}${pct(Math.abs(a - b))} ± ${pct(Math.sqrt(seA * seA + seB * seB))})`;

/** `a cmp b` on every attack column both have; the detail lists each comparison. */
function everyAuc(rowA: Approach, rowB: Approach, strict: boolean): GroupTest {
  return (get, se) => {
    const parts: string[] = [];
    const oks: ClaimVerdict[] = [];
    for (const column of AUC_COLUMNS) {
      const a = get(rowA, column);
      const b = get(rowB, column);
      if (a === undefined || b === undefined) continue;
      const ok = decide(a, b, se?.(rowA, column), se?.(rowB, column), 'less', 0, strict);
      oks.push(ok);
      parts.push(`${column.replace(' AUC', '')} ${pct(a)} vs ${pct(b)}${delta(a, b, se?.(rowA, column), se?.(rowB, column))}${mark(ok)}`);
    }
    return { ok: all(oks), detail: parts.join(', ') };
  };
}

/** CRL's AUC < CE's on every attack and test accuracy ≥ CE's − 2 points. */
const crlBeatsCe: GroupTest = (get, se) => {
  const aucs = everyAuc('CRL', 'CE', true)(get, se);
  const crl = get('CRL', 'Test Acc.');
  const ce = get('CE', 'Test Acc.');
  if (aucs.ok === undefined || crl === undefined || ce === undefined) return { ok: undefined, detail: 'cells missing' };
  const accOk = decide(crl, ce, se?.('CRL', 'Test Acc.'), se?.('CE', 'Test Acc.'), 'greater', -0.02, false);
  const d = delta(crl, ce, se?.('CRL', 'Test Acc.'), se?.('CE', 'Test Acc.'));
  return { ok: all([aucs.ok, accOk]), detail: `${aucs.detail}; test acc ${pct(crl)} vs ${pct(ce)}${d}, allowed −2.0${mark(accOk)}` };
};

/** Test accuracy of `a` ≥ (or <) every row of `others`. */
const accuracyVs =
  (a: Approach, others: readonly Approach[], direction: Direction, strict: boolean): GroupTest =>
  (get, se) => {
    const x = get(a, 'Test Acc.');
    const ys = others.map((o) => get(o, 'Test Acc.'));
    if (x === undefined || ys.some((y) => y === undefined)) return { ok: undefined, detail: 'cells missing' };
    const oks = ys.map((y, i) => decide(x, y!, se?.(a, 'Test Acc.'), se?.(others[i]!, 'Test Acc.'), direction, 0, strict));
    return { ok: all(oks), detail: `test acc ${a} ${pct(x)} vs ${others.map((o, i) => `${o} ${pct(ys[i]!)}${mark(oks[i]!)}`).join(', ')}` };
  };

/** The claims of Table 1 with their tests (statement → test). */
export const TABLE1_CLAIMS: ReadonlyArray<readonly [string, GroupTest]> = [
  ["CRL's AUCs < CE's on every attack (NN, Entropy, M-Entropy, Grad-x) at test accuracy ≥ CE's − 2 points, for every model and dataset", crlBeatsCe],
  ["CRL's AUCs ≤ RelaxLoss's on every attack, for every model and dataset", everyAuc('CRL', 'RelaxLoss', false)],
  ["CRL's AUCs ≤ AdvReg's on every attack, for every model and dataset", everyAuc('CRL', 'AdvReg', false)],
  ["CRL's test accuracy ≥ RelaxLoss's and AdvReg's, for every model and dataset", accuracyVs('CRL', ['RelaxLoss', 'AdvReg'], 'greater', false)],
  ["AdvReg costs utility: AdvReg's test accuracy < CE's, for every model and dataset", accuracyVs('AdvReg', ['CE'], 'less', true)],
];

/**
 * Evaluates one Table 1 claim on every group of the paper (docs/protocol.md §5.1): each measured group
 * with 2-SE margins (✗ beyond 2 SE the wrong way, ~ within noise), "not testable" when it fails CRL's
 * regime, "not evaluated" when it did not run; combined over the groups (a strict subset decided →
 * "partial"). For context, the claim on the paper's own numbers (strict comparisons).
 */
export function table1Claim(
  statement: string,
  test: GroupTest,
  measured: readonly MeasuredGroup[],
  paperGroups: ReadonlyArray<readonly [string, string]>,
): Claim {
  const paper = paperGroups.map(([d, m]) => test((a, c) => paperValue(d, m, a, c))).filter((v) => v.ok !== undefined);
  const paperNote = `paper's own numbers: holds in ${paper.filter((v) => v.ok === 'holds').length}/${paper.length} groups`;
  const name = (d: string, m: string) => `${d}/${m}`;
  const decisions: ColumnDecision[] = measured.map((g) => {
    const column = name(g.dataset, g.model);
    if (g.gate !== undefined) return { column, verdict: 'not testable', evidence: `not testable at this scale: ${g.gate}` };
    const v = test(g.get, g.se);
    return v.ok === undefined ? { column, verdict: 'not evaluated', evidence: v.detail } : { column, verdict: v.ok, evidence: v.detail };
  });
  const seen = new Set(decisions.map((d) => d.column));
  for (const [d, m] of paperGroups) if (!seen.has(name(d, m))) decisions.push({ column: name(d, m), verdict: 'not evaluated', evidence: 'not run here' });
  if (decisions.length === 0) return { statement, verdict: 'not evaluated', evidence: `no group measured here (${paperNote})` };
  const combined = combineColumns(statement, decisions);
  return { ...combined, evidence: `${combined.evidence}. For comparison, ${paperNote}.` };
}
