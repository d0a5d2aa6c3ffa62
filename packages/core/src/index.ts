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
export { countParameters, type Classifier, type ForwardOptions, type ForwardResult, type ParameterGroup, type ParameterKind } from './classifier';
export type { PerExampleTape, TapeConv2dOptions, ExplicitPadding } from './per-example-tape';
export { labeledData, subsetData, checkLabels, type LabeledData, type LabeledDataInit } from './labeled-data';
export type { Optimizer, Gradients, NamedState, LrSchedule } from './optimizer';
export type { TrainingPlugin, BatchContext, LossContext, StepTools, GradientResult, EpochInfo, EpochEndInfo } from './training-plugin';
export { sgd, type SgdOptions } from './sgd';
export { adam, type AdamOptions } from './adam';
export { SGD_UPDATE, ADAM_UPDATE } from './optimizer-kernels';
export { cosine, multiStep, piecewise, constantLr, type PiecewiseRange } from './lr-schedules';
export { crossEntropy, crossEntropyPerExample } from './cross-entropy';
export { SOFTMAX_CROSS_ENTROPY, SOFTMAX_CROSS_ENTROPY_GRAD } from './fused-cross-entropy';
export { train } from './train';
export type { TrainOptions, TrainResult, TrainProgressEvent, EpochSummary } from './train-options';
export { predictLogits, predictOutputs, evaluate, type PredictOptions, type EvaluationResult } from './predict';
export { encodeCheckpoint, decodeCheckpoint, writeCheckpointFile, readCheckpointFile, type CheckpointData } from './checkpoint';
export { createProgressBar, type ProgressBar } from './progress-bar';
export {
  batchNormTraining,
  BATCH_NORM_TRAINING,
  BATCH_NORM_RELU_TRAINING,
  BATCH_NORM_TRAINING_GRAD,
  type BatchNormTrainingOptions,
  type BatchNormTrainingResult,
} from './batch-norm-training';
export { conv2dBias, CONV2D_BIAS, type Conv2dPadding } from './conv2d-bias';
export { createAttackNetwork, type AttackNetworkSpec, type AttackNetworkInit, type DenseLayerSpec } from './attack-network';
export { attackNetworkSpec, attackNetworkKinds, type AttackNetworkKind } from './attack-network-spec';
export { denseBias, DENSE_BIAS, DENSE_BIAS_GRAD_INPUT, DENSE_BIAS_GRAD_WEIGHT, DENSE_BIAS_GRAD_BIAS, type DenseActivation } from './dense-bias';
export { useCpuTraining } from './cpu-filter-gradient';
export { initBackend, chosenBackend, type BackendName, type InitBackendOptions, type InitBackendResult } from './init-backend';
export { option, type OptionField, type OptionsOf, type FieldSettings, type NumberSettings, type Presence } from './options/option-fields';
export { optionsSchema, formatOptionIssues, type OptionsSchema, type OptionIssue, type InferOptions } from './options/options-schema';
