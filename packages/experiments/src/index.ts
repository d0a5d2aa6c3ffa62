export {
  experimentSchema,
  expandGrid,
  attackConfigOf,
  type ExperimentConfig,
  type TrainingConfig,
  type DefenseConfig,
  type DefenseSearch,
  type AttackEntry,
  type AttackConfig,
  type ReferencesConfig,
} from './schema/run-schema';
export { parseExperimentConfig } from './config/parse-config';
export { experimentJsonSchema } from './config/json-schema';
export { loadExperimentConfig } from './config/load-config';
export { runExperiment, type RunExperimentOptions, type TrainUnitsRequest, type UnitPlacement } from './run/runner';
export { prepareData, type PreparedData } from './data/prepare-data';
export { initDefaultBackend } from './train/backend-choice';
export { registerDefense, getDefense, findDefense, defenseNames, importDefenseModules } from './defenses/registry';
export { defineDefense, type DefenseDefinition, type DefenseTrainContext, type DefenseRunFacts, type UnitLogits } from './defenses/definition';
export { optimizerFor, trainWithPlugins, copyWeights } from './defenses/train-helpers';
export { AUGMENTATION_ATTACKS, augmentationQueries, unitQuerySignals, type AugmentationAttackName, type UnitQuerySignals } from './attacks/query-signals';
export { createAttacks, ATTACK_NAMES, registerAttack, getAttack, findAttack, attackNames } from './attacks/registry';
export {
  defineAttack,
  type AttackDefinition,
  type AttackNeeds,
  type AttackQuerySet,
  type AttackCreateContext,
  type AttackRunFacts,
  type AttackReferences,
  type AttackRecords,
} from './attacks/definition';
export { referenceKeep, isReferenceRole, type ReferenceScheme, type ReferenceRole } from './plan/reference-membership';
export type { RunReferences } from './references/reference-signals';
export { importReferences, parseReferenceModel, type ReferenceModelFile } from './references/reference-import';
export { exportReferences } from './references/reference-export';
export { npyBytes } from './references/npy-bytes';
export {
  DirectoryArtifactStore,
  type ArtifactStore,
  type ArtifactManifest,
  type ArtifactEntry,
  type ReadOptions,
  type WriteOutcome,
  type VerifyResult,
} from './store/artifact-store';
export { acquireClaim, type ClaimOptions, type ClaimHolder, type UnitClaim } from './store/unit-claim';
export type { Leftover } from './store/leftovers';
export type { ProcessOwner } from './store/process-owner';
export { defaultModelStore, modelCacheDir } from './store/model-store';
export { canonicalJson, contentHash } from './store/canonical-hash';
export { writeReport } from './report/write-report';
export { markdownReport } from './report/markdown-report';
export { htmlReport } from './report/html-report';
export type {
  ExperimentResults,
  DefenseRow,
  AttackRow,
  RowSe,
  SeedValues,
  RowPrivacy,
  RowDpAudit,
  EmpiricalEpsilonRow,
  ExposedRecord,
  RowExposure,
  RowRecords,
  RecordColumns,
  ScoreHistogram,
  ReferencesSummary,
} from './run/results';
export {
  pairedDifferenceSe,
  pairedDifferenceDf,
  pairedRowSe,
  pairIndex,
  type PairedSeTable,
  type PairedMetric,
  type PairedRowInput,
  type PairedRowSeOptions,
} from './run/paired-se';
// The job queue (bullmq, ioredis) and the paper-reproduction framework have their own entry points,
// `@mia/experiments/queue` and `@mia/experiments/reproduce`, so importing this one loads neither.
