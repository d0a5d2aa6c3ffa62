export { tinyMlp, type TinyMlpOptions } from './tiny-mlp';
export { syntheticClassification, type SyntheticClassificationOptions } from './synthetic-data';
export { tinyCnn, type TinyCnnOptions } from './tiny-cnn';
export { registerDenseBiasReference, type DenseBiasReference } from './dense-bias-reference';
