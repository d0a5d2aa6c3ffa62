export { runReproduction, type RunReproductionOptions } from './run-reproduction';
export { redecideReproduction, replayReproduction, NeedsTrainedModelsError, ConfigChangedError, type RedecideOptions } from './redecide';
export { plannedSeedRuns, reproductionPlan, configDifferences, PlanDriftError } from './run-plan';
export { registerReproductions, reproductionNames, getReproduction, byScale } from './registry';
export { metricTable, rowOf, cellOf, formatValue, type MetricTableOptions, type PaperValues } from './table-helpers';
export {
  claimForEveryColumn,
  pairedColumnSe,
  regimeGate,
  compareRows,
  type EveryColumnOptions,
  type DifferenceSe,
  type ColumnGate,
  type RegimeGateOptions,
  type CompareRowsOptions,
} from './column-claims';
export {
  compareEstimates,
  combineColumns,
  holmFailures,
  claimSummary,
  undecidedColumn,
  columnOf,
  normalUpperTail,
  criticalValue,
  satterthwaiteDf,
  type ComparisonTest,
  type CombineOptions,
  isDecided,
  decidedClaim,
  notEvaluated,
  notTestable,
  formatNumber,
  type Estimate,
  type SeSource,
  type CompareOptions,
} from './verdicts';
export {
  DEFAULT_REGIME,
  regime,
  classesOf,
  regimeProblem,
  collapseProblem,
  testabilityProblem,
  thresholdProblem,
  saturationProblem,
  convergenceProblem,
  comparatorProblem,
  missingRows,
  SATURATION,
  type Regime,
  type PaperRegime,
  type Convergence,
  type ExternalAttack,
  type TestabilityInput,
} from '../run/testability';
export { rowMetrics, attackMetric, averageAdvantageMetric, binomialAdvantageSe, hanleyMcNeilSe, p1DeltaSe, type RowMetric } from './row-metrics';
export { aggregateSeeds, combineSeeds, configForSeed, pairedEstimates, rowValue, seedRuns, type SeedCombination } from './seeds';
export { trendClaim, trendDecision, type TrendPoint, type TrendOptions, type TrendClaimOptions } from './trend-claims';
export { storedReproduction, reproductionFromStored, type StoredReproductionResult } from './stored-reproduction';
export { verdictCounts, type VerdictCounts } from './verdict-counts';
export {
  claimCensus,
  claimDecided,
  partialAgrees,
  isOwnClaim,
  type ClaimCensus,
  type ClaimCensusOptions,
  type CensusClaim,
  type CensusCounts,
  type PaperCensus,
} from './claim-census';
export {
  claimNeeds,
  decisionNeed,
  needOfReason,
  needsLine,
  CLAIM_NEED_KINDS,
  CLAIM_NEED_LABELS,
  BEYOND_THIS_MACHINE,
  type ClaimNeed,
  type ClaimNeedKind,
  type NeedFinding,
} from './claim-needs';
export { claimCensusMarkdown, type ClaimCensusMarkdownOptions } from './claim-census-markdown';
export { checkReproduction, marginProblems, type ExpectedReproduction } from './check-reproduction';
export {
  reproductionMarkdown,
  reproductionHtml,
  tableMarkdown,
  tablesMarkdown,
  claimsMarkdown,
  subVerdicts,
  writeReproductionReport,
} from './reproduction-report';
export {
  REPRODUCTION_SCALES,
  CLAIM_VERDICTS,
  CURRENT_VERDICT_RULES,
  isNotRun,
  type Reproduction,
  type ReproductionContext,
  type ReproductionOutput,
  type ReproductionResult,
  type ReproductionScale,
  type ReproductionTable,
  type ReproductionFigure,
  type TableCell,
  type MeasuredCell,
  type MissingCell,
  type CellFormat,
  type Claim,
  type ClaimVerdict,
  type Direction,
  type Decision,
  type DecidedDecision,
  type UndecidedDecision,
  type UndecidedKind,
  type ColumnDecision,
  type NotRun,
  type RunOutcome,
  type RunSeedsOptions,
  type SeedRun,
  type LoadedUnit,
  type PlannedRun,
  type PlanContext,
} from './types';
export { selectHyperparameter, type Selection, type SelectionCandidate, type SelectionCriterion, type SelectionPosition } from './selection';
export { validationView, type ValidationView, type RegisteredChooser } from './validation-view';
export {
  dpSgdSettings,
  dpSgdSettingName,
  dpSgdCandidateLabel,
  dpSgdSettingParams,
  dpSgdSelectionDefenses,
  selectDpSgdSettings,
  withDpSgdSettings,
  dpSgdSearch,
  chosenDpSgdSettings,
  dpSgdSelectionTable,
  type DpSgdSetting,
  type DpSgdGrid,
  type DpSgdChoice,
} from './dp-sgd-selection';
export { budgetMinutes, type Budget, type BudgetLine } from './budget';
