export { crlPlugin, type CrlPlugin, type CrlPluginOptions } from './crl-plugin';
export { crlLoss, type CrlBatch } from './crl-loss';
export { crlOptionsSchema, type CrlOptions, type CrlComponents } from './crl-options';
export { impRelaxLoss, type ImpRelaxLossOptions } from './imp-relax-loss';
export { relaxedCenterLoss, type RelaxedCenterLossOptions } from './relaxed-center-loss';
export { createClassCenters, type ClassCentersOptions } from './class-centers';
export { normalizeRows, NORM_EPSILON } from './normalize-rows';
export { logitNormalizationFloor, checkAboveLogitFloor } from './logit-normalization-floor';
export { summarizeRelaxation, formatRelaxationEpoch, type RelaxationEpochCounts, type RelaxationSummary } from './relaxation-counter';
