export { baselineGrids, baselineDefaults } from './baseline-grids';
export { softCrossEntropy, softCrossEntropyPerExample } from './soft-cross-entropy';
export { relaxLoss, relaxLossPlugin, flattenedTargets, relaxLossOptionsSchema, type RelaxLossOptions } from './relax-loss';
export { labelSmoothingLoss, labelSmoothingPlugin, labelSmoothingOptionsSchema, type LabelSmoothingOptions } from './label-smoothing-loss';
export { confidencePenaltyLoss, confidencePenaltyPlugin, confidencePenaltyOptionsSchema, type ConfidencePenaltyOptions } from './confidence-penalty-loss';
export { earlyStopping, type EarlyStopping, type EarlyStoppingOptions } from './early-stopping';
export { l1Plugin, l2SgdOptions, l1OptionsSchema, type L1Options } from './l1-plugin';
export { mmdSquaredBiased, mixupLoss } from './mmd-loss';
export { trainMixupMmd, type MixupMmdOptions, type MixupMmdEpoch } from './train-mixup-mmd';
export { mixupMmdOptionsSchema } from './mixup-mmd-options';
export { advRegOptionsSchema } from './adv-reg-options';
export { TwoBranchAttackModel, mlhAdvRegAttackModel, selAttackModel, type TwoBranchAttackOptions } from './attack-model';
export { advRegPlugin, type AdvRegPluginOptions, type AttackFeatures } from './adv-reg-plugin';
export { trainAdvReg, type AdvRegOptions, type AdvRegEpoch } from './train-adv-reg';
export { distillationKlLoss, type DistillationKlOptions } from './distillation-loss';
export { trainDmp, distillationPlugin, type DmpOptions, type DmpResult } from './train-dmp';
export {
  splitAiAssignment,
  trainSplitAi,
  splitAiPredict,
  splitAiOptionsSchema,
  type SplitAi,
  type SplitAiOptions,
  type SplitAiPredictOptions,
} from './split-ai';
export { trainSelena, softLabelPlugin, type SelenaOptions, type SelenaResult } from './train-selena';
export { MemGuardAttackModel, trainMemGuardAttackModel, memGuardAttackTrainingSchema, type MemGuardAttackTrainingOptions } from './mem-guard-attack-model';
export { memGuard, memGuardOptionsSchema, type MemGuardOptions, type MemGuardResult } from './mem-guard';
