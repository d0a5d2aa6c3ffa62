import * as tf from '@tensorflow/tfjs-core';
import { batchNormLayer } from './batch-norm-layer';
import { conv2dLayer } from './conv2d-layer';
import { denseLayer } from './dense-layer';
import { sequential, type Layer } from './layer';
import { modelClassifier, type ModelClassifier } from './model-classifier';
import { resolveBaseOptions, type BaseModelOptions } from './model-options';
import { ParameterStore } from './parameter-store';
import { dropout, maxPool } from './pooling';

/** Options of {@link createVgg11Bn}. */
export type Vgg11BnOptions = BaseModelOptions;

/** VGG configuration "A" (11 weight layers); `0` marks a 2×2 max-pool. */
const CONFIG_A = [64, 0, 128, 0, 256, 256, 0, 512, 512, 0, 512, 512, 0];

/**
 * CIFAR-style VGG11 with batch norm (RelaxLoss' `vgg11_bn`, CRL's VGG): configuration A of 3×3
 * convs (with bias) + BN + ReLU and five 2×2 max-pools, then `Linear(512, C)` on the flattened
 * 1×1×512 map. PyTorch-default init. Names: `features.<i>` (the `nn.Sequential` indices) and
 * `classifier`. Features: the 512 channels after the last pool, averaged over space (which is the
 * flattening at 32×32 input, where the map is 1×1).
 *
 * Parameters: 9,231,114 for C = 10 (convs 9,220,480, BN 5,504, fc 5,130; the same count as the
 * kuangliu/bearpaw CIFAR VGG11-BN). Cost: 0.306 GFLOPs per 32×32 image.
 * @throws InvalidArgumentError on a bad option.
 * @see docs/protocol.md §2.3, §2.6
 */
export function createVgg11Bn(options: Vgg11BnOptions): ModelClassifier {
  const base = resolveBaseOptions('createVgg11Bn', options, [32, 32, 3]);
  const store = new ParameterStore('vgg11Bn', base.random);
  const layers: Layer[] = [];
  let channels = base.inputShape[2]!;
  let index = 0;
  for (const v of CONFIG_A) {
    if (v === 0) {
      layers.push(maxPool(2, 2));
      index += 1;
      continue;
    }
    layers.push(
      conv2dLayer(store, `features.${index}`, { inChannels: channels, outChannels: v, kernelSize: 3, padding: 1 }),
      batchNormLayer(store, `features.${index + 1}`, v, { relu: true }),
    );
    index += 3;
    channels = v;
  }
  layers.push((x) => tf.mean(x, [1, 2]));
  const classifier = denseLayer(store, 'classifier', { inFeatures: channels, outFeatures: base.numClasses });
  const drop = dropout(base.dropout);
  return modelClassifier({
    architecture: 'vgg11-bn',
    config: { numClasses: base.numClasses, inputShape: base.inputShape, seed: base.seed, dropout: base.dropout },
    store,
    inputShape: base.inputShape,
    numClasses: base.numClasses,
    featureDim: channels,
    body: sequential(...layers),
    head: (f, ctx) => classifier(drop(f, ctx), ctx),
  });
}
