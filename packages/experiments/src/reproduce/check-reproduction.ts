import type { ReproductionResult } from './types';

/** What a complete report must contain: every table by title with its rows and columns. */
export interface ExpectedReproduction {
  readonly tables: ReadonlyArray<{ readonly title: string; readonly rows: readonly string[]; readonly columns: readonly string[] }>;
  /** Number of claims the reproduction states. */
  readonly claims: number;
}

/**
 * Problems that make a reproduction's report incomplete (empty when complete): a missing table, row
 * or column; a cell with neither a finite value of ours nor a "not run" reason; a claim with no
 * verdict or evidence; a claim "not evaluated" although every run it could rest on ran. Used by the
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
  return problems;
}
