export { experimentSchema, parseExperimentConfig, type ExperimentConfig, type TrainingConfig, type DefenseConfig } from './config';
export { loadExperimentConfig } from './load-config';
export { runExperiment, type RunExperimentOptions } from './runner';
export { prepareData, type PreparedData } from './prepare-data';
export { registerDefense, getDefense, findDefense, defenseNames, importDefenseModules } from './defense-registry';
export { defineDefense, type DefenseDefinition, type DefenseTrainContext, type DefenseRunFacts, type UnitLogits } from './defense-definition';
export { optimizerFor, trainWithPlugins, copyWeights } from './train-helpers';
export { experimentJsonSchema } from './config-json-schema';
export { AUGMENTATION_ATTACKS, augmentationQueries, unitQuerySignals, type AugmentationAttackName, type UnitQuerySignals } from './query-signals';
export { createAttacks, ATTACK_NAMES } from './attack-registry';
export { DirectoryArtifactStore, type ArtifactStore, type ArtifactManifest, type VerifyResult } from './artifact-store';
export { canonicalJson, contentHash } from './canonical-hash';
export { writeReport } from './report/write-report';
export { markdownReport } from './report/markdown-report';
export { htmlReport } from './report/html-report';
export type { ExperimentResults, DefenseRow, AttackRow } from './results';
export {
  runReproduction, registerReproductions, reproductionNames, getReproduction, byScale,
  metricTable, rowOf, cellOf, claim, claimForEveryColumn, formatValue, checkReproduction,
  reproductionMarkdown, reproductionHtml, tableMarkdown, claimsMarkdown, writeReproductionReport, REPRODUCTION_SCALES, isNotRun,
  type RunReproductionOptions, type MetricTableOptions, type PaperValues, type ExpectedReproduction,
  type Reproduction, type ReproductionContext, type ReproductionOutput, type ReproductionResult, type ReproductionScale,
  type ReproductionTable, type ReproductionFigure, type TableCell, type CellFormat, type Claim, type ClaimVerdict, type NotRun, type RunOutcome, type LoadedUnit,
} from './reproduce/index';
export type { TrainUnitsRequest } from './runner';
export { parseQueueUrl, type QueueAddress } from './queue/queue-url';
export { connectRedis, type ConnectRedisOptions } from './queue/redis-connection';
export { QueueUnavailableError, UnitJobFailedError } from './queue/queue-errors';
export { UNIT_QUEUE_NAME, unitJobs, versionDifferences, type UnitJobData, type UnitJobResult } from './queue/unit-job';
export { enqueueUnits, type EnqueueUnitsOptions, type EnqueueSummary } from './queue/enqueue-units';
export { followUnits, type FollowUnitsOptions } from './queue/follow-units';
export { queueTrainer, enqueueSweep, type QueueSweepOptions } from './queue/queue-sweep';
export { startQueueWorker, type QueueWorkerOptions, type QueueWorkerHandle } from './queue/queue-worker';
