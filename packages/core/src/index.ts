export {
  MiaError,
  InvalidArgumentError,
  ShapeMismatchError,
  InvalidDatasetError,
  TrainingDivergedError,
  CheckpointError,
  BackendError,
  AbortError,
  describeValue,
  type MiaErrorOptions,
} from './errors';
export { check, checkPositiveInteger, checkNonNegativeInteger, checkNumberInRange } from './validate';
export { seededRandom, deriveSeed, type Random } from './random';
export {
  countParameters,
  type Classifier,
  type ForwardOptions,
  type ForwardResult,
  type ParameterGroup,
  type ParameterKind,
} from './classifier';
export { labeledData, subsetData, checkLabels, type LabeledData, type LabeledDataInit } from './labeled-data';
export type { Optimizer, Gradients, NamedState, LrSchedule } from './optimizer';
export type {
  TrainingPlugin,
  BatchContext,
  LossContext,
  StepTools,
  GradientResult,
  EpochInfo,
  EpochEndInfo,
} from './training-plugin';
