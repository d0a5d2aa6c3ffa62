import { claim, type Claim } from '@mia/experiments/reproduce';
import { AUC_COLUMNS, paperValue, type Approach, type Table1Column } from './paper-values';

/** A cell getter of one (dataset, model) group: our value or the paper's, undefined when missing. */
export type CellGetter = (approach: Approach, column: Table1Column) => number | undefined;

/** One group's verdict on a claim: undefined when the cells it needs are missing. */
interface GroupVerdict {
  readonly ok: boolean | undefined;
  readonly detail: string;
}

/** A claim test on one group. */
type GroupTest = (get: CellGetter) => GroupVerdict;

/** A measured group: where it is and how to read its cells. */
export interface MeasuredGroup {
  readonly dataset: string;
  readonly model: string;
  readonly get: CellGetter;
}

const pct = (v: number) => (100 * v).toFixed(1);

/** `a cmp b` on every attack column both have; the detail lists each comparison. */
function everyAuc(rowA: Approach, rowB: Approach, strict: boolean): GroupTest {
  return (get) => {
    const parts: string[] = [];
    const oks: boolean[] = [];
    for (const column of AUC_COLUMNS) {
      const a = get(rowA, column);
      const b = get(rowB, column);
      if (a === undefined || b === undefined) continue;
      const ok = strict ? a < b : a <= b;
      oks.push(ok);
      parts.push(`${column.replace(' AUC', '')} ${pct(a)} vs ${pct(b)}${ok ? '' : ' ✗'}`);
    }
    return { ok: oks.length === 0 ? undefined : oks.every(Boolean), detail: parts.join(', ') };
  };
}

/** CRL's AUC < CE's on every attack and test accuracy ≥ CE's − 2 points. */
const crlBeatsCe: GroupTest = (get) => {
  const aucs = everyAuc('CRL', 'CE', true)(get);
  const crl = get('CRL', 'Test Acc.');
  const ce = get('CE', 'Test Acc.');
  if (aucs.ok === undefined || crl === undefined || ce === undefined) return { ok: undefined, detail: 'cells missing' };
  const accOk = crl >= ce - 0.02;
  return { ok: aucs.ok && accOk, detail: `${aucs.detail}; test acc ${pct(crl)} vs ${pct(ce)}${accOk ? '' : ' ✗'}` };
};

/** Test accuracy of `a` ≥ (or <) every row of `others`. */
const accuracyVs = (a: Approach, others: readonly Approach[], cmp: (x: number, y: number) => boolean): GroupTest => (get) => {
  const x = get(a, 'Test Acc.');
  const ys = others.map((o) => get(o, 'Test Acc.'));
  if (x === undefined || ys.some((y) => y === undefined)) return { ok: undefined, detail: 'cells missing' };
  const oks = ys.map((y) => cmp(x, y!));
  return { ok: oks.every(Boolean), detail: `test acc ${a} ${pct(x)} vs ${others.map((o, i) => `${o} ${pct(ys[i]!)}${oks[i] ? '' : ' ✗'}`).join(', ')}` };
};

/** The claims of Table 1 with their tests (statement → test). */
export const TABLE1_CLAIMS: ReadonlyArray<readonly [string, GroupTest]> = [
  ["CRL's AUCs < CE's on every attack (NN, Entropy, M-Entropy, Grad-x) at test accuracy ≥ CE's − 2 points, for every model and dataset", crlBeatsCe],
  ["CRL's AUCs ≤ RelaxLoss's on every attack, for every model and dataset", everyAuc('CRL', 'RelaxLoss', false)],
  ["CRL's AUCs ≤ AdvReg's on every attack, for every model and dataset", everyAuc('CRL', 'AdvReg', false)],
  ["CRL's test accuracy ≥ RelaxLoss's and AdvReg's, for every model and dataset", accuracyVs('CRL', ['RelaxLoss', 'AdvReg'], (x, y) => x >= y)],
  ["AdvReg costs utility: AdvReg's test accuracy < CE's, for every model and dataset", accuracyVs('AdvReg', ['CE'], (x, y) => x < y)],
];

/**
 * Evaluates one Table 1 claim on every measured group (ours), and, for context, on the paper's own
 * numbers for every group of the paper. Not evaluated when no group was measured.
 */
export function table1Claim(statement: string, test: GroupTest, measured: readonly MeasuredGroup[], paperGroups: ReadonlyArray<readonly [string, string]>): Claim {
  const ours = measured.map((g) => ({ g, v: test(g.get) }));
  const decided = ours.filter((o) => o.v.ok !== undefined);
  const paper = paperGroups.map(([d, m]) => test((a, c) => paperValue(d, m, a, c))).filter((v) => v.ok !== undefined);
  const paperNote = `paper's own numbers: holds in ${paper.filter((v) => v.ok).length}/${paper.length} groups`;
  if (decided.length === 0) return claim(statement, undefined, `no group measured here (${paperNote})`);
  const evidence = decided.map(({ g, v }) => `${g.dataset}/${g.model}: ${v.detail} (${v.ok ? 'holds' : 'fails'})`).join('; ');
  return claim(statement, decided.every((o) => o.v.ok), `${evidence}. For comparison, ${paperNote}.`);
}
