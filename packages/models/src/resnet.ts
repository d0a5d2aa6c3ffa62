import * as tf from '@tensorflow/tfjs-core';
import { check, checkPositiveInteger } from '@mia/core';
import { conv2dLayer } from './conv2d-layer';
import { denseLayer } from './dense-layer';
import { sequential, type Layer } from './layer';
import { modelClassifier, type ModelClassifier } from './model-classifier';
import { resolveBaseOptions, type BaseModelOptions } from './model-options';
import { normConfig, normLayer, resolveNorm, type NormOptions, type ResolvedNorm } from './norm-layer';
import { ParameterStore, type WeightInit } from './parameter-store';
import { dropout, globalAvgPool, maxPool } from './pooling';

/** Options of {@link createResNet}. */
export interface ResNetOptions extends BaseModelOptions, NormOptions {
  /** 18 or 34 (BasicBlocks `[2,2,2,2]` or `[3,4,6,3]`). @default 18 */
  readonly depth?: 18 | 34;
  /**
   * `'cifar'`: 3×3/1 conv, no max-pool (kuangliu/CRL ResNet); `'imagenet'`: torchvision's 7×7/2 conv +
   * 3×3/2 max-pool (PAST/CCL code, docs/protocol.md §2.1–2.2). @default 'cifar'
   */
  readonly stem?: 'cifar' | 'imagenet';
  /** Width of the first stage; stages are `w, 2w, 4w, 8w`. 64 is the standard ResNet. @default 64 */
  readonly width?: number;
  /**
   * `'torchvision'`: conv `N(0, 2/fan_out)`; `'pytorch-default'`: conv `U(±1/√fan_in)`. BN γ=1, β=0 and
   * the default `Linear` init in both. @default 'torchvision' for the ImageNet stem, else 'pytorch-default'
   */
  readonly init?: 'torchvision' | 'pytorch-default';
}

const BLOCKS: Record<18 | 34, number[]> = { 18: [2, 2, 2, 2], 34: [3, 4, 6, 3] };

function basicBlock(store: ParameterStore, name: string, cin: number, cout: number, stride: number, init: WeightInit, norm: ResolvedNorm): Layer {
  const conv = (n: string, i: number, k: number, s: number) =>
    conv2dLayer(store, `${name}.${n}`, { inChannels: i, outChannels: cout, kernelSize: k, stride: s, padding: k === 3 ? 1 : 0, bias: false, init });
  const main = sequential(
    conv('conv1', cin, 3, stride),
    normLayer(store, `${name}.bn1`, cout, norm, { relu: true }),
    conv('conv2', cout, 3, 1),
    normLayer(store, `${name}.bn2`, cout, norm),
  );
  const shortcut: Layer =
    stride !== 1 || cin !== cout ? sequential(conv('downsample.0', cin, 1, stride), normLayer(store, `${name}.downsample.1`, cout, norm)) : (x) => x;
  return (x, ctx) => tf.relu(tf.add(main(x, ctx), shortcut(x, ctx)));
}

/**
 * ResNet-18/34 (He et al. 2016) with BasicBlocks, as torchvision names them (`conv1`, `bn1`,
 * `layer1.0.conv1`, `layer1.0.downsample.0`, `fc`). Features are the globally average-pooled
 * `8·width` channels (512 for the standard width).
 *
 * Parameters (PyTorch references): CIFAR stem, C = 10: ResNet-18 11,173,962, ResNet-34 21,282,122;
 * ImageNet stem, C = 1000: ResNet-18 11,689,512, ResNet-34 21,797,672.
 * Cost: ResNet-18 CIFAR stem 1.11 GFLOPs per 32×32 image (ResNet-34: 2.32); ImageNet stem 3.63 GFLOPs
 * per 224×224 image; `width: 16` (`resnet-narrow`, 701,466 parameters) 70.1 MFLOPs per 32×32 image.
 *
 * `norm: 'group'` puts a GroupNorm where each BatchNorm is (same names, same trainable parameters,
 * no running statistics; `GroupNorm(32, C)` by default, as Opacus' `replace_bn_with_gn` makes it):
 * the variant for DP-SGD, whose per-example gradients a batch norm would mix. `norm: 'none'` drops
 * them (the convolutions keep `bias: false`).
 * @throws InvalidArgumentError on a bad option.
 * @see docs/protocol.md §2.1, §2.2, §2.6; §4.16 (the GroupNorm variant for DP-SGD)
 */
export function createResNet(options: ResNetOptions): ModelClassifier {
  const base = resolveBaseOptions('createResNet', options, [32, 32, 3]);
  const depth = options.depth ?? 18;
  check(depth === 18 || depth === 34, 'createResNet', 'depth', '18 or 34', depth);
  const stem = options.stem ?? 'cifar';
  check(stem === 'cifar' || stem === 'imagenet', 'createResNet', 'stem', "'cifar' or 'imagenet'", stem);
  const norm = resolveNorm('createResNet', options);
  const width = options.width ?? 64;
  checkPositiveInteger('createResNet', 'width', width);
  const initName = options.init ?? (stem === 'imagenet' ? 'torchvision' : 'pytorch-default');
  check(initName === 'torchvision' || initName === 'pytorch-default', 'createResNet', 'init', "'torchvision' or 'pytorch-default'", initName);
  const init: WeightInit = initName === 'torchvision' ? 'kaiming-fan-out' : 'uniform';
  const store = new ParameterStore(`resnet${depth}`, base.random);
  const cin = base.inputShape[2]!;
  const layers: Layer[] =
    stem === 'cifar'
      ? [conv2dLayer(store, 'conv1', { inChannels: cin, outChannels: width, kernelSize: 3, padding: 1, bias: false, init })]
      : [conv2dLayer(store, 'conv1', { inChannels: cin, outChannels: width, kernelSize: 7, stride: 2, padding: 3, bias: false, init })];
  layers.push(normLayer(store, 'bn1', width, norm, { relu: true }));
  if (stem === 'imagenet') layers.push(maxPool(3, 2, 1));
  let channels = width;
  BLOCKS[depth].forEach((count, stage) => {
    const cout = width * 2 ** stage;
    for (let j = 0; j < count; j++) {
      layers.push(basicBlock(store, `layer${stage + 1}.${j}`, channels, cout, j === 0 && stage > 0 ? 2 : 1, init, norm));
      channels = cout;
    }
  });
  layers.push(globalAvgPool);
  const fc = denseLayer(store, 'fc', { inFeatures: channels, outFeatures: base.numClasses });
  const drop = dropout(base.dropout);
  return modelClassifier({
    architecture: `resnet${depth}`,
    config: {
      numClasses: base.numClasses,
      inputShape: base.inputShape,
      seed: base.seed,
      dropout: base.dropout,
      depth,
      stem,
      width,
      init: initName,
      ...normConfig(norm),
    },
    store,
    inputShape: base.inputShape,
    numClasses: base.numClasses,
    featureDim: channels,
    body: sequential(...layers),
    head: (f, ctx) => fc(drop(f, ctx), ctx),
  });
}
