export { FLOAT32_EPSILON, privacySensitivity } from './privacy-sensitivity';
export { pastPenalty, type PastNorm, type PastPenaltyOptions } from './past-penalty';
export type { RegularizedVariablesOptions } from './regularized-variables';
export { pastPlugin, type PastPluginOptions } from './past-plugin';
export { pastTune, type PastTuneOptions } from './past-tune';
export { pastOptionsSchema, resolvePastOptions, type ResolvedPastOptions } from './past-options';
export { lossGapPlugin, type LossGapPluginOptions } from './loss-gap-plugin';
export { lossGapTune, type LossGapTuneOptions } from './loss-gap-tune';
export type { TuningPhaseOptions } from './tuning-phase';
export {
  computeSensitivity,
  type ComputeSensitivityOptions,
  type SensitivityGroup,
  type SensitivityResult,
} from './compute-sensitivity';
export {
  summarizeSensitivity,
  type SensitivityStats,
  type SensitivitySummary,
  type SummarizeSensitivityOptions,
} from './summarize-sensitivity';
export type { ValuesInput } from './flatten-values';
export { measureLossGap, type LossGapMeasurement } from './measure-loss-gap';
export { lossGapRecorder, type LossGapRecord, type LossGapRecorderOptions } from './loss-gap-recorder';
export { giniRecorder, type GiniRecord } from './gini-recorder';
export { parameterValues, type ParameterValuesOptions } from './parameter-values';
export { histogram, sharedHistograms, type Histogram, type HistogramOptions } from './histogram';
export { sensitivityRecorder, type SensitivityRecord, type SensitivityRecorderOptions } from './sensitivity-recorder';
