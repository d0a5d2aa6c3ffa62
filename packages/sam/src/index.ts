export {
  samPlugin,
  sharpMinimaPlugin,
  sharpRegPlugin,
  samOptionsSchema,
  sharpRegOptionsSchema,
  type SamPluginOptions,
  type SharpMinimaPluginOptions,
  type SharpRegPluginOptions,
} from './sam-plugin';
export type { SharpnessPluginOptions } from './sharpness-plugin';
export { samOptimizer, type SamOptimizer, type SamOptimizerOptions } from './sam-optimizer';
export { sharpnessGradients, type SharpnessGradientOptions, type SharpnessPasses } from './sharpness-gradients';
export { swa, applySwa, type SwaOptions, type SwaPlugin } from './swa';
export { reestimateStatistics, type ReestimateStatisticsOptions } from './reestimate-statistics';
export { influenceEntropy, type InfluenceEntropyOptions, type InfluenceEntropyResult } from './influence-entropy';
export { bucketByInfluenceEntropy, type InfluenceBucketOptions } from './bucket-by-influence-entropy';
export { bucketAccuracy, type BucketAccuracy } from './bucket-accuracy';
export { estimateInfluence, type EstimateInfluenceOptions, type InfluenceEstimate, type SubsetModelOutputs } from './estimate-influence';
