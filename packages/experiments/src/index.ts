export { experimentSchema, parseExperimentConfig, expandGrid, type ExperimentConfig, type TrainingConfig, type DefenseConfig } from './config';
export { experimentJsonSchema } from './config-json-schema';
export { loadExperimentConfig } from './load-config';
export { runExperiment, type RunExperimentOptions, type TrainUnitsRequest } from './runner';
export { prepareData, type PreparedData } from './prepare-data';
export { initDefaultBackend } from './backend-choice';
export { registerDefense, getDefense, findDefense, defenseNames, importDefenseModules } from './defense-registry';
export { defineDefense, type DefenseDefinition, type DefenseTrainContext, type DefenseRunFacts, type UnitLogits } from './defense-definition';
export { optimizerFor, trainWithPlugins, copyWeights } from './train-helpers';
export { AUGMENTATION_ATTACKS, augmentationQueries, unitQuerySignals, type AugmentationAttackName, type UnitQuerySignals } from './query-signals';
export { createAttacks, ATTACK_NAMES } from './attack-registry';
export {
  DirectoryArtifactStore,
  type ArtifactStore,
  type ArtifactManifest,
  type ArtifactEntry,
  type ReadOptions,
  type WriteOutcome,
  type VerifyResult,
} from './artifact-store';
export { acquireClaim, type ClaimOptions, type ClaimHolder, type UnitClaim } from './unit-claim';
export type { Leftover } from './store-leftovers';
export type { ProcessOwner } from './process-owner';
export { defaultModelStore, modelCacheDir } from './model-store';
export { canonicalJson, contentHash } from './canonical-hash';
export { writeReport } from './report/write-report';
export { markdownReport } from './report/markdown-report';
export { htmlReport } from './report/html-report';
export type { ExperimentResults, DefenseRow, AttackRow, RowSe, SeedValues } from './results';
export { pairedDifferenceSe, pairedRowSe, pairIndex, type PairedSeTable, type PairedMetric, type PairedRowInput, type PairedRowSeOptions } from './paired-se';
// The job queue (bullmq, ioredis) and the paper-reproduction framework have their own entry points,
// `@mia/experiments/queue` and `@mia/experiments/reproduce`, so importing this one loads neither.
