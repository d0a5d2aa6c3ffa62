import { InvalidArgumentError, countParameters } from '@mia/core';
import { attackModelKinds, createAttackModel, type AttackModelKind } from './attack-model';
import { createDenseNet121 } from './densenet';
import { createGoogLeNet } from './googlenet';
import { createInceptionV4 } from './inception-v4';
import { createMlp } from './mlp';
import type { ModelClassifier } from './model-classifier';
import type { BaseModelOptions } from './model-options';
import { createResNet } from './resnet';
import { createSmallCnn } from './small-cnn';
import { createVgg11Bn } from './vgg';
import { createWideResNet } from './wide-resnet';

/** Options of {@link createModel}: the common ones plus any option of the architecture's builder. */
export interface CreateModelOptions extends Partial<BaseModelOptions> {
  /** Architecture-specific options (`stem`, `width`, `init`, `depth`, `widen`, `hidden`, `activation`, `inputDim`, ...). */
  readonly [option: string]: unknown;
}

type Builder = (options: CreateModelOptions) => ModelClassifier;
// The builders validate their own options; the registry only routes.
const asOptions = <T>(options: CreateModelOptions) => options as unknown as T;

const attackBuilder =
  (kind: AttackModelKind): Builder =>
  (o) =>
    createAttackModel(kind, { inputDim: (o.inputDim ?? o.inputShape?.[0]) as number, ...(o.seed === undefined ? {} : { seed: o.seed }) });

const REGISTRY: Record<string, Builder> = {
  /** Purchase/Texas MLP; `inputShape: [6169]` (or `inputDim`) for Texas. */
  mlp: (o) => createMlp(asOptions({ ...o, inputDim: o.inputDim ?? o.inputShape?.[0] })),
  resnet18: (o) => createResNet(asOptions({ ...o, depth: 18 })),
  resnet34: (o) => createResNet(asOptions({ ...o, depth: 34 })),
  'resnet-narrow': (o) => createResNet(asOptions({ width: 16, ...o, depth: 18, stem: 'cifar' })),
  'small-cnn': (o) => createSmallCnn(asOptions(o)),
  'vgg11-bn': (o) => createVgg11Bn(asOptions(o)),
  densenet121: (o) => createDenseNet121(asOptions(o)),
  wrn: (o) => createWideResNet(asOptions(o)),
  'wrn-16-8': (o) => createWideResNet(asOptions({ ...o, depth: 16, widen: 8 })),
  googlenet: (o) => createGoogLeNet(asOptions(o)),
  'inception-v4': (o) => createInceptionV4(asOptions(o)),
  ...Object.fromEntries(attackModelKinds.map((k) => [k, attackBuilder(k)])),
};

/**
 * Every name {@link createModel} accepts: `mlp`, `resnet18`, `resnet34`, `resnet-narrow` (ResNet-18
 * topology, width 16, CIFAR stem), `small-cnn`, `vgg11-bn`, `densenet121`, `wrn` / `wrn-16-8`,
 * `googlenet`, `inception-v4`, and the attack models `nn-rl`, `nn-mlh`, `nn-sel`, `nn-crl`.
 */
export const modelNames: readonly string[] = Object.keys(REGISTRY);

/**
 * Builds an architecture by name, e.g. `createModel('resnet18', {numClasses: 10, seed: 1})`.
 * The same name and options give the same weights. The attack models take `inputDim` instead of
 * `numClasses`.
 * @param name - one of {@link modelNames}.
 * @param options - common options plus the builder's own (see `createResNet`, `createMlp`, ...).
 * @returns a {@link ModelClassifier} that {@link saveClassifier} can store.
 * @throws InvalidArgumentError on an unknown name or a bad option.
 * @see docs/protocol.md §2 (which paper trains which architecture)
 */
export function createModel(name: string, options: CreateModelOptions): ModelClassifier {
  const builder = Object.hasOwn(REGISTRY, name) ? REGISTRY[name] : undefined;
  if (builder === undefined) {
    throw new InvalidArgumentError(`createModel: name must be one of ${modelNames.join(', ')}, got ${JSON.stringify(name)}`);
  }
  if (typeof options !== 'object' || options === null) {
    throw new InvalidArgumentError(`createModel: options must be an object, got ${String(options)}`);
  }
  return builder(options);
}

/**
 * The number of trainable parameters of an architecture with these options, e.g. to size a plan
 * (`modelParameterCount('resnet18', { numClasses: 10, inputShape: [32, 32, 3], width: 32 })`): the
 * model is built on the active tfjs backend, counted and disposed.
 * @param name - one of {@link modelNames}. @param options - as {@link createModel}'s.
 * @throws InvalidArgumentError as {@link createModel}.
 */
export function modelParameterCount(name: string, options: CreateModelOptions): number {
  const model = createModel(name, options);
  try {
    return countParameters(model);
  } finally {
    model.dispose();
  }
}
