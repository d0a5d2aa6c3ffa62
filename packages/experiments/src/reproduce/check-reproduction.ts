import type { Claim, Decision, ReproductionResult } from './types';
import { isDecided } from './verdicts';

/** Whether a decision is decided with a finite Δ and SE ≥ 0 (a stored one may predate the rule, or hold NaN). */
const hasMargin = (d: Decision | undefined) => d !== undefined && isDecided(d) && Number.isFinite(d.delta) && Number.isFinite(d.se) && d.se >= 0;

/**
 * The claims (and columns) decided without a margin (docs/protocol.md §5.1: no decision without
 * one): a claim whose verdict is decided ('holds', 'does not hold', 'within noise', or 'partial')
 * must rest on a `decision` or on `columns`, and every decided decision must carry a numeric Δ and
 * SE. Empty when every decision has them.
 */
export function marginProblems(claims: readonly Claim[]): string[] {
  const problems: string[] = [];
  for (const c of claims) {
    const name = JSON.stringify(c.statement);
    if (!isDecided(c.verdict) && c.verdict !== 'partial') continue;
    if (c.columns !== undefined && c.columns.length > 0) {
      if (!c.columns.some((col) => isDecided(col.verdict))) problems.push(`claim ${name}: ${c.verdict} but no column is decided`);
      for (const col of c.columns)
        if (isDecided(col.verdict) && !hasMargin(col))
          problems.push(`claim ${name}, column ${JSON.stringify(col.column)}: ${col.verdict} without a numeric Δ and SE`);
    } else if (!hasMargin(c.decision)) problems.push(`claim ${name}: ${c.verdict} without a numeric Δ and SE`);
  }
  return problems;
}

/** What a complete report must contain: every table by title with its rows and columns. */
export interface ExpectedReproduction {
  readonly tables: ReadonlyArray<{ readonly title: string; readonly rows: readonly string[]; readonly columns: readonly string[] }>;
  /** Number of claims the reproduction states. */
  readonly claims: number;
}

/**
 * Problems that make a reproduction's report incomplete (empty when complete): a missing table, row
 * or column; a cell with neither a finite value of ours nor a "not run" reason; a claim with no
 * verdict or evidence; a claim "not evaluated" although every run it could rest on ran; a decided
 * claim or column without a numeric Δ and SE ({@link marginProblems}). Used by the
 * smoke tests of the example packages.
 */
export function checkReproduction(result: ReproductionResult, expected: ExpectedReproduction): string[] {
  const problems: string[] = [];
  for (const want of expected.tables) {
    const table = result.tables.find((t) => t.title === want.title);
    if (table === undefined) {
      problems.push(`table ${JSON.stringify(want.title)} missing (have ${result.tables.map((t) => JSON.stringify(t.title)).join(', ')})`);
      continue;
    }
    for (const column of want.columns) if (!table.columns.includes(column)) problems.push(`${want.title}: column ${JSON.stringify(column)} missing`);
    for (const rowLabel of want.rows) {
      const row = table.rows.find((r) => r.label === rowLabel);
      if (row === undefined) {
        problems.push(`${want.title}: row ${JSON.stringify(rowLabel)} missing`);
        continue;
      }
      if (row.cells.length !== table.columns.length) problems.push(`${want.title}/${rowLabel}: ${row.cells.length} cells for ${table.columns.length} columns`);
      row.cells.forEach((cell, i) => {
        const where = `${want.title}/${rowLabel}/${table.columns[i]}`;
        if (cell.ours === undefined && (cell.notRun === undefined || cell.notRun === '')) problems.push(`${where}: neither a value nor a reason`);
        if (cell.ours !== undefined && !Number.isFinite(cell.ours)) problems.push(`${where}: value ${cell.ours} is not finite`);
      });
    }
  }
  if (result.claims.length !== expected.claims) problems.push(`expected ${expected.claims} claims, got ${result.claims.length}`);
  const allRan = Object.values(result.runs).every((r) => !('notRun' in r));
  for (const c of result.claims) {
    if (c.statement.trim() === '' || c.evidence.trim() === '') problems.push(`claim ${JSON.stringify(c.statement)}: statement or evidence empty`);
    if (c.verdict === 'not evaluated' && allRan) problems.push(`claim ${JSON.stringify(c.statement)}: not evaluated although every run ran (${c.evidence})`);
  }
  problems.push(...marginProblems(result.claims));
  return problems;
}
