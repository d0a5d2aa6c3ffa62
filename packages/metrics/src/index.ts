export { MetricsError } from './metrics-error';
export type { MetricsErrorKind, MetricsErrorOptions } from './metrics-error';
export type { Membership, Scores, ClassLabels } from './validate';

export { rocCurve } from './roc-curve';
export type { RocCurve } from './roc-curve';
export { auc } from './auc';
export { tprAtFpr } from './tpr-at-fpr';
export type { TprAtFprOptions, TprAtFprResult } from './tpr-at-fpr';
export { operatingPoint } from './operating-point';
export type { OperatingPoint, RateCounts } from './operating-point';
export { bestOperatingPoint } from './best-operating-point';
export type { BestOperatingPoint } from './best-operating-point';
export { attackAdvantage } from './attack-advantage';
export type { ThresholdOptions } from './attack-advantage';
export { balancedAccuracy } from './balanced-accuracy';
export { p1Score } from './p1-score';
export { summarizeAttack } from './summarize-attack';
export type { AttackMetrics, SummarizeAttackOptions } from './summarize-attack';

export { clopperPearson, rateIntervals } from './clopper-pearson';
export type { ConfidenceInterval, ConfidenceOptions } from './clopper-pearson';
export { betaQuantile, regularizedIncompleteBeta } from './incomplete-beta';
export { bootstrapAuc, bootstrapRocStatistic, bootstrapTprAtFpr } from './bootstrap';
export type { BootstrapInterval, BootstrapOptions } from './bootstrap';
export { seededUniform } from './seeded-uniform';

export { fitThreshold } from './fit-threshold';
export type { ThresholdFit } from './fit-threshold';
export { fitClassThresholds } from './fit-class-thresholds';
export type { ClassThresholdFit, ClassThresholdOptions } from './fit-class-thresholds';
export { evaluateClassThresholds } from './evaluate-class-thresholds';
export type { ThresholdEvaluation } from './evaluate-class-thresholds';
export { fitThresholdSel } from './fit-threshold-sel';
export type { SelThresholdFit } from './fit-threshold-sel';
export { selThresholdAttack } from './sel-threshold-attack';
export type { LabeledMembershipScores, SelThresholdAttackResult } from './sel-threshold-attack';

export { lossGap } from './loss-gap';
export { lossVariance } from './loss-variance';
export { giniAbs, giniShifted } from './gini';
export type { GiniInput, GiniShiftedOptions } from './gini';
export { sensitivityShareBelow, sensitivityTopShare } from './sensitivity-statistics';
export type { SensitivityInput } from './sensitivity-statistics';
export { lowerBound } from './score-blocks';
export { stratifiedBootstrapSe, weightedScores, weightedMean } from './stratified-bootstrap';
export type { StratifiedResample, StratifiedBootstrapOptions, WeightedScores } from './stratified-bootstrap';
export { kendallTau } from './kendall-tau';
export type { KendallTau } from './kendall-tau';
