export { createModel, modelNames, modelParameterCount, type CreateModelOptions } from './create-model';
export { createMlp, type MlpOptions } from './mlp';
export { createResNet, type ResNetOptions } from './resnet';
export { createSmallCnn, type SmallCnnOptions } from './small-cnn';
export { createVgg11Bn, type Vgg11BnOptions } from './vgg';
export { createDenseNet121, type DenseNet121Options } from './densenet';
export { createWideResNet, type WideResNetOptions } from './wide-resnet';
export { createGoogLeNet, type GoogLeNetOptions } from './googlenet';
export { createInceptionV4, type InceptionV4Options } from './inception-v4';
export { createAttackModel, attackModelKinds, type AttackModelKind, type AttackModelOptions } from './attack-model';
export type { ModelClassifier, ModelConfig } from './model-classifier';
export type { BaseModelOptions } from './model-options';
export type { WeightInit, BiasInit } from './parameter-store';
export {
  serializeClassifier,
  deserializeClassifier,
  encodeClassifier,
  decodeClassifier,
  CHECKPOINT_FORMAT_VERSION,
  type ClassifierManifest,
} from './serialize-classifier';
export { saveClassifier, loadClassifier } from './save-classifier';
