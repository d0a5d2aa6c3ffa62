import { join } from 'node:path';
import { claimsMarkdown, tablesMarkdown } from './reproduction-report';
import type { ReproductionResult } from './types';

/**
 * What `mia reproduce` prints when it is done: the tables (each reason for a cell not run given once,
 * under the first table that has it), the claims (each claim's sub-verdicts once), the time taken and
 * the files written into `out`. A re-decided reproduction (`redecided`) prints its claims only.
 */
export function reproductionSummary(result: ReproductionResult, out: string, options: { readonly redecided?: boolean } = {}): string {
  const wrote = `wrote ${join(out, 'report.md')}\n      ${join(out, 'report.html')}\n      ${join(out, 'reproduction.json')}\n`;
  if (options.redecided === true) return `## Claims (re-decided on the results of ${result.startedAt})\n\n${claimsMarkdown(result)}\n\n${wrote}`;
  const shown = new Set<string>();
  return `${tablesMarkdown(result.tables, shown)}\n## Claims\n\n${claimsMarkdown(result, shown)}\n\n${result.name} at scale ${result.scale}: ${result.seconds.toFixed(0)} s, backend ${result.backend}\n${wrote}`;
}
