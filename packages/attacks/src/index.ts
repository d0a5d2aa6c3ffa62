export type { ModelSignals, SplitSignals, ReferenceSignals } from './signals/model-signals';
export { signalsFromLogits, type SignalsFromLogitsOptions } from './signals/signals-from-logits';
export { signalsFromLosses, signalsFromProbabilities } from './signals/signals-from-losses';
export { concatSignals } from './signals/concat-signals';
export { selectSignals, splitSignals } from './signals/split-signals';
export { computeSignals, type ComputeSignalsOptions, type QueryTransform } from './signals/compute-signals';
export { inputGradientNorms, type InputGradientNormOptions } from './signals/input-gradient-norms';
export { flipNoiseCounts, type FlipNoiseOptions } from './signals/flip-noise-counts';

export { parseNpy, type NpyArray } from './parsers/parse-npy';
export { parseScoreJson } from './parsers/parse-score-json';
export { parseScoreCsv, parseScoreCsvStream } from './parsers/parse-score-csv';
export { buildScoreTable, type ScoreTable } from './parsers/score-table';
export { signalsFromScoreTable } from './parsers/signals-from-score-table';

export type { MembershipAttack, ShadowAttack, ReferenceAttack } from './attacks/attack';
export { signedStatistic, type Statistic, type StatisticName } from './attacks/signed-statistic';
export { metricAttack, MIN_CLASS_EXAMPLES, type MetricAttack, type MetricAttackOptions, type ThresholdMode } from './attacks/metric-attack';
export { attackFeatures, type AttackFeatures, type AttackFeatureKind } from './attacks/attack-features';
export { createAttackNetwork, type AttackNetworkSpec, type DenseLayerSpec } from '@mia/core';
export { nnAttack, type NnAttackOptions } from './attacks/nn-attack';
export { nnMlhAttack, nnRlAttack, nnSelAttack, nnCrlAttack, augmentationAttack, type NnPresetOptions, type NnSelOptions } from './attacks/nn-presets';
export { bestEpochPlugin, type BestEpochPlugin } from './attacks/best-epoch-plugin';
export { featureFlipAttack } from './attacks/feature-flip-attack';
export { liraAttack, type LiraOptions } from './attacks/lira-attack';
export { rmiaAttack, type RmiaOptions } from './attacks/rmia-attack';
export { rmiaProbability, type RmiaSignal } from './attacks/rmia-signal';
export { attackR, attackP } from './attacks/reference-percentile-attacks';
export { likelihoodRatioAttack } from './attacks/likelihood-ratio-attack';

export { runAttackSuite, type AttackSuiteInput, type AttackSuiteResult, type AttackResult, type AuditSignals } from './suite/run-attack-suite';
export { auditClassifier, type AuditClassifierOptions, type TrainShadow, type ShadowRole } from './suite/audit-classifier';
export { concatData } from './suite/concat-data';

export { auditModel, type AuditModelData, type AuditModelOptions, type AuditReferences } from './audit/audit-model';
export { auditScores, type AuditScoresInput, type AuditScoresOptions, type AttackScores } from './audit/audit-scores';
export { AuditReport, type AuditReportData, type AuditReportJson } from './audit/audit-report';
export type { AuditAttackResult, AuditClassMetrics, AuditTprAtFpr } from './audit/audit-attack-metrics';
export type { ExposureReport, RecordExposure } from './audit/record-exposure';
export type { AuditableModel, AuditData, PredictFunction, PredictingModel } from './audit/model-outputs';
export { checkLeakage, type LeakCeilings, type LeakCheck, type LeakVerdict, type LeakageEvidence } from './audit/check-leakage';

// Whether an audit can be trusted: the blind baseline and the validity checks (docs/guides/audit-doctor.md).
export type { AuditProvenance, AuditValidity } from './audit/audit-validity';
export { diagnoseAudit } from './doctor/diagnose-audit';
export { isSearchUnaccounted } from './doctor/audit-description';
export { AUDIT_FINDING_CODES, findingLine, type AuditFinding, type AuditFindingCode, type AuditFindingCodeInfo } from './doctor/audit-finding';
export type {
  AuditDescription,
  OperatingPointClaim,
  PrivacyClaim,
  PrivacySearch,
  RecordSet,
  ReferenceAttackUse,
  ReferencesDescription,
  SelectionDescription,
  TrainingDescription,
} from './doctor/audit-description';
export { recordFeatures, HASHED_FEATURES, type RecordFeatures } from './doctor/record-features';
export { contentHashes } from './doctor/content-hashes';
export {
  fitBlindBaseline,
  compareWithBaseline,
  shiftFinding,
  baselineNote,
  baselineSentence,
  SHIFT_CONFIDENCE,
  BLIND_BASELINE_METHOD,
  LABEL_BASELINE_METHOD,
  type BlindBaselineReport,
  type BaselineComparison,
} from './doctor/blind-baseline-report';
export { MIN_PER_SIDE_FOR_OWN_SIGMA, MIN_IN_SHARE } from './doctor/check-references';

// Building blocks that attacks beyond the classifier-signal interface need (docs/decisions/0060-attacks-beyond-classifier-signals.md).
export { pinballLoss } from './regression/pinball-loss';
export { gaussianNllLoss } from './regression/gaussian-nll-loss';
export { trainRegressor, type TrainRegressorOptions } from './regression/train-regressor';
export { labelOracle, type LabelOracle, type LabelOracleOptions } from './label-only/label-oracle';
export { tokenLogprobRecord, TOKEN_RECORD_FIELDS, type TokenLogprobRecord } from './llm/token-logprob-record';
export { parseTokenLogprobsJsonl, parseTokenLogprobsJsonlStream } from './llm/parse-token-logprobs-jsonl';
export { tokenRecordsFromArrays, type TokenLogprobArrays, type ShapedArray } from './llm/token-records-from-arrays';
export { zlibByteLength } from './llm/zlib-byte-length';
export { addZlibBytes } from './llm/add-zlib-bytes';
export { tokenAttack, lowestFractionMean, type TokenAttack, type TokenAttackSpec } from './llm/token-attack';

// Attacks added through the public API above only (each file in builtin/ imports this index and nothing private).
export { qmiaAttack, qmiaOptionsSchema, type QmiaAttack, type QmiaOptions, type QmiaParams, type QmiaRecords } from './builtin/qmia-attack';
export {
  boundaryDistances,
  boundaryDistanceOptionsSchema,
  type BoundaryDistances,
  type BoundaryDistanceOptions,
  type BoundaryDistanceParams,
} from './builtin/boundary-distances';
export { boundaryDistanceAttack, type BoundaryDistanceAttackOptions } from './builtin/boundary-distance-attack';
export { llmLossAttack, llmLossOptionsSchema, type LlmLossAttackOptions } from './builtin/llm-loss-attack';
export { zlibRatioAttack, zlibRatioOptionsSchema, type ZlibRatioAttackOptions } from './builtin/zlib-ratio-attack';
export { minKAttack, minKOptionsSchema, type MinKAttackOptions } from './builtin/min-k-attack';
export { minKPlusPlusAttack, minKPlusPlusOptionsSchema, type MinKPlusPlusAttackOptions } from './builtin/min-k-plus-plus-attack';
export { referenceRatioAttack, referenceRatioOptionsSchema, type ReferenceRatioAttackOptions } from './builtin/reference-ratio-attack';

// A model behind a prediction endpoint, audited black-box under a query budget (docs/guides/new-attacks.md).
export { auditEndpoint } from './endpoint/audit-endpoint';
export {
  auditEndpointOptionsSchema,
  type AuditEndpointOptions,
  type EndpointAuditReport,
  type EndpointAuditRow,
  type EndpointRecords,
} from './endpoint/audit-endpoint-options';
export { httpPredict, type HttpPredictOptions } from './endpoint/http-predict';
export type { EndpointPredict, EndpointQuery, EndpointQueryCounts } from './endpoint/endpoint-client';
export {
  memoryQueryCache,
  endpointCacheLines,
  parseEndpointCache,
  queryKey,
  type EndpointQueryCache,
  type EndpointCacheEntry,
} from './endpoint/endpoint-query-cache';
export { ENDPOINT_GRANULARITIES, type EndpointGranularity, type EndpointOutput, type EndpointAnswer } from './endpoint/endpoint-answer';
export { EndpointError, type EndpointErrorOptions } from './endpoint/endpoint-error';
