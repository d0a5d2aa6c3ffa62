import * as tf from '@tensorflow/tfjs-core';
import { batchNormLayer } from './batch-norm-layer';
import { conv2dLayer } from './conv2d-layer';
import { denseLayer } from './dense-layer';
import { sequential, type Layer } from './layer';
import { modelClassifier, type ModelClassifier } from './model-classifier';
import { resolveBaseOptions, type BaseModelOptions } from './model-options';
import { ParameterStore } from './parameter-store';
import { dropout, globalAvgPool, maxPool } from './pooling';

/** Options of {@link createGoogLeNet}. */
export type GoogLeNetOptions = BaseModelOptions;

/** `[in, 1x1, 3x3 reduce, 3x3, 5x5 reduce, 5x5 (two 3x3), pool proj]` of each Inception module. */
const MODULES: ReadonlyArray<readonly [string, number, number, number, number, number, number, number]> = [
  ['a3', 192, 64, 96, 128, 16, 32, 32],
  ['b3', 256, 128, 128, 192, 32, 96, 64],
  ['a4', 480, 192, 96, 208, 16, 48, 64],
  ['b4', 512, 160, 112, 224, 24, 64, 64],
  ['c4', 512, 128, 128, 256, 24, 64, 64],
  ['d4', 512, 112, 144, 288, 32, 64, 64],
  ['e4', 528, 256, 160, 320, 32, 128, 128],
  ['a5', 832, 256, 160, 320, 32, 128, 128],
  ['b5', 832, 384, 192, 384, 48, 128, 128],
];

function inception(store: ParameterStore, spec: (typeof MODULES)[number]): Layer {
  const [name, cin, n1, r3, n3, r5, n5, pp] = spec;
  // conv(k)-BN-ReLU at nn.Sequential index `i` (conv i, BN i+1).
  const cbr = (branch: string, i: number, from: number, to: number, k: number) =>
    sequential(
      conv2dLayer(store, `${name}.${branch}.${i}`, { inChannels: from, outChannels: to, kernelSize: k, padding: k === 3 ? 1 : 0 }),
      batchNormLayer(store, `${name}.${branch}.${i + 1}`, to, { relu: true }),
    );
  const b1 = cbr('b1', 0, cin, n1, 1);
  const b2 = sequential(cbr('b2', 0, cin, r3, 1), cbr('b2', 3, r3, n3, 3));
  const b3 = sequential(cbr('b3', 0, cin, r5, 1), cbr('b3', 3, r5, n5, 3), cbr('b3', 6, n5, n5, 3));
  const b4 = sequential(maxPool(3, 1, 1), cbr('b4', 1, cin, pp, 1));
  return (x, ctx) => tf.concat([b1(x, ctx), b2(x, ctx), b3(x, ctx), b4(x, ctx)], 3);
}

/**
 * CIFAR GoogLeNet (kuangliu/pytorch-cifar, used by CRL for CIFAR-100, docs/protocol.md §2.6): a 3×3
 * conv to 192 channels + BN + ReLU, Inception modules a3–b5 (the 5×5 branch as two 3×3 convs,
 * every conv with bias + BN + ReLU), 3×3/2 max-pools after b3 and e4, global average pool,
 * `linear`. Names follow kuangliu (`pre_layers.0`, `a3.b2.3`, `linear`). Features: 1024 channels.
 * The reference's `AvgPool2d(8)` equals the global pool at 32×32 input.
 *
 * Parameters: 6,166,250 for C = 10. Cost: 3.04 GFLOPs per 32×32 image.
 * @throws InvalidArgumentError on a bad option.
 * @see docs/protocol.md §2.6
 */
export function createGoogLeNet(options: GoogLeNetOptions): ModelClassifier {
  const base = resolveBaseOptions('createGoogLeNet', options, [32, 32, 3]);
  const store = new ParameterStore('googlenet', base.random);
  const layers: Layer[] = [
    conv2dLayer(store, 'pre_layers.0', { inChannels: base.inputShape[2]!, outChannels: 192, kernelSize: 3, padding: 1 }),
    batchNormLayer(store, 'pre_layers.1', 192, { relu: true }),
  ];
  for (const spec of MODULES) {
    layers.push(inception(store, spec));
    if (spec[0] === 'b3' || spec[0] === 'e4') layers.push(maxPool(3, 2, 1));
  }
  layers.push(globalAvgPool);
  const linear = denseLayer(store, 'linear', { inFeatures: 1024, outFeatures: base.numClasses });
  const drop = dropout(base.dropout);
  return modelClassifier({
    architecture: 'googlenet',
    config: { numClasses: base.numClasses, inputShape: base.inputShape, seed: base.seed, dropout: base.dropout },
    store,
    inputShape: base.inputShape,
    numClasses: base.numClasses,
    featureDim: 1024,
    body: sequential(...layers),
    head: (f, ctx) => linear(drop(f, ctx), ctx),
  });
}
