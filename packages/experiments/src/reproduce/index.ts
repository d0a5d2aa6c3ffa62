export { runReproduction, type RunReproductionOptions } from './run-reproduction';
export { registerReproductions, reproductionNames, getReproduction, byScale } from './registry';
export { metricTable, rowOf, cellOf, claim, claimForEveryColumn, formatValue, type MetricTableOptions, type PaperValues } from './table-helpers';
export { checkReproduction, type ExpectedReproduction } from './check-reproduction';
export { reproductionMarkdown, reproductionHtml, tableMarkdown, claimsMarkdown, writeReproductionReport } from './reproduction-report';
export {
  REPRODUCTION_SCALES, isNotRun,
  type Reproduction, type ReproductionContext, type ReproductionOutput, type ReproductionResult, type ReproductionScale,
  type ReproductionTable, type ReproductionFigure, type TableCell, type CellFormat, type Claim, type ClaimVerdict, type NotRun, type RunOutcome, type LoadedUnit,
} from './types';
