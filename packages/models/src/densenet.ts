import * as tf from '@tensorflow/tfjs-core';
import { check, checkPositiveInteger } from '@mia/core';
import { batchNormLayer } from './batch-norm-layer';
import { conv2dLayer } from './conv2d-layer';
import { denseLayer } from './dense-layer';
import { sequential, type Layer } from './layer';
import { modelClassifier, type ModelClassifier } from './model-classifier';
import { resolveBaseOptions, type BaseModelOptions } from './model-options';
import { ParameterStore, type WeightInit } from './parameter-store';
import { avgPool, dropout, globalAvgPool, maxPool } from './pooling';

/** Options of {@link createDenseNet121}. */
export interface DenseNet121Options extends BaseModelOptions {
  /**
   * `'imagenet'`: torchvision's 7×7/2 conv + BN + ReLU + 3×3/2 max-pool (PAST/CCL code, docs/protocol.md §2.1–2.2);
   * `'cifar'`: one 3×3/1 conv to 64 channels, no BN, no pool (kuangliu's CIFAR DenseNet121). @default 'imagenet'
   */
  readonly stem?: 'cifar' | 'imagenet';
  /**
   * `'torchvision'`: conv `N(0, 2/fan_in)`, classifier bias 0; `'pytorch-default'`: `U(±1/√fan_in)` everywhere.
   * @default 'torchvision' for the ImageNet stem, else 'pytorch-default'
   */
  readonly init?: 'torchvision' | 'pytorch-default';
  /** torchvision's `growth_rate`. @default 32 */
  readonly growthRate?: number;
  /** torchvision's `block_config` (layers per dense block). @default [6, 12, 24, 16] */
  readonly blocks?: readonly number[];
  /** torchvision's `num_init_features`. @default 64 */
  readonly initFeatures?: number;
}

const BOTTLENECK = 4;

function denseLayerBlock(store: ParameterStore, name: string, cin: number, growth: number, init: WeightInit): Layer {
  const inner = BOTTLENECK * growth;
  const branch = sequential(
    batchNormLayer(store, `${name}.norm1`, cin, { relu: true }),
    conv2dLayer(store, `${name}.conv1`, { inChannels: cin, outChannels: inner, kernelSize: 1, bias: false, init }),
    batchNormLayer(store, `${name}.norm2`, inner, { relu: true }),
    conv2dLayer(store, `${name}.conv2`, { inChannels: inner, outChannels: growth, kernelSize: 3, padding: 1, bias: false, init }),
  );
  return (x, ctx) => tf.concat([x, branch(x, ctx)], 3);
}

/**
 * DenseNet-121 (Huang et al. 2017) as torchvision builds it (growth 32, blocks 6-12-24-16,
 * bottleneck 4, compression 0.5, 64 initial channels) with torchvision names
 * (`features.denseblock1.denselayer1.conv1`, `features.transition1.conv`, `features.norm5`,
 * `classifier`). Features: the 1024 channels after `norm5` + ReLU, globally average-pooled.
 * `growthRate`, `blocks` and `initFeatures` are torchvision's `DenseNet` arguments, for smaller variants.
 *
 * Parameters: ImageNet stem 7,978,856 (C = 1000, torchvision), 7,056,356 (C = 100); CIFAR stem
 * 6,956,298 (C = 10, kuangliu). Cost: 5.67 GFLOPs per 224×224 image (ImageNet stem);
 * 1.78 GFLOPs per 32×32 image (CIFAR stem), 0.116 GFLOPs per 32×32 image (ImageNet stem).
 * @throws InvalidArgumentError on a bad option.
 * @see docs/protocol.md §2.1, §2.2
 */
export function createDenseNet121(options: DenseNet121Options): ModelClassifier {
  const base = resolveBaseOptions('createDenseNet121', options, [32, 32, 3]);
  const stem = options.stem ?? 'imagenet';
  check(stem === 'cifar' || stem === 'imagenet', 'createDenseNet121', 'stem', "'cifar' or 'imagenet'", stem);
  const initName = options.init ?? (stem === 'imagenet' ? 'torchvision' : 'pytorch-default');
  check(initName === 'torchvision' || initName === 'pytorch-default', 'createDenseNet121', 'init', "'torchvision' or 'pytorch-default'", initName);
  const init: WeightInit = initName === 'torchvision' ? 'kaiming-fan-in' : 'uniform';
  const growth = options.growthRate ?? 32;
  const blocks = [...(options.blocks ?? [6, 12, 24, 16])];
  const initFeatures = options.initFeatures ?? 64;
  checkPositiveInteger('createDenseNet121', 'growthRate', growth);
  checkPositiveInteger('createDenseNet121', 'initFeatures', initFeatures);
  check(blocks.length > 0 && blocks.every((b) => Number.isInteger(b) && b > 0), 'createDenseNet121', 'blocks', 'positive integers', options.blocks);
  const store = new ParameterStore('densenet121', base.random);
  const cin = base.inputShape[2]!;
  const layers: Layer[] =
    stem === 'imagenet'
      ? [
          conv2dLayer(store, 'features.conv0', { inChannels: cin, outChannels: initFeatures, kernelSize: 7, stride: 2, padding: 3, bias: false, init }),
          batchNormLayer(store, 'features.norm0', initFeatures, { relu: true }),
          maxPool(3, 2, 1),
        ]
      : [conv2dLayer(store, 'features.conv0', { inChannels: cin, outChannels: initFeatures, kernelSize: 3, padding: 1, bias: false, init })];
  let channels = initFeatures;
  blocks.forEach((count, b) => {
    for (let j = 0; j < count; j++) {
      layers.push(denseLayerBlock(store, `features.denseblock${b + 1}.denselayer${j + 1}`, channels, growth, init));
      channels += growth;
    }
    if (b < blocks.length - 1) {
      const name = `features.transition${b + 1}`;
      const out = Math.floor(channels / 2);
      layers.push(
        batchNormLayer(store, `${name}.norm`, channels, { relu: true }),
        conv2dLayer(store, `${name}.conv`, { inChannels: channels, outChannels: out, kernelSize: 1, bias: false, init }),
        avgPool(2, 2),
      );
      channels = out;
    }
  });
  layers.push(batchNormLayer(store, 'features.norm5', channels, { relu: true }), globalAvgPool);
  const classifier = denseLayer(store, 'classifier', {
    inFeatures: channels,
    outFeatures: base.numClasses,
    biasInit: initName === 'torchvision' ? 'zeros' : 'uniform',
  });
  const drop = dropout(base.dropout);
  return modelClassifier({
    architecture: 'densenet121',
    config: {
      numClasses: base.numClasses,
      inputShape: base.inputShape,
      seed: base.seed,
      dropout: base.dropout,
      stem,
      init: initName,
      growthRate: growth,
      blocks,
      initFeatures,
    },
    store,
    inputShape: base.inputShape,
    numClasses: base.numClasses,
    featureDim: channels,
    body: sequential(...layers),
    head: (f, ctx) => classifier(drop(f, ctx), ctx),
  });
}
