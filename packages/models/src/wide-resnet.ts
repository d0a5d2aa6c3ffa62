import * as tf from '@tensorflow/tfjs-core';
import { check, checkPositiveInteger } from '@mia/core';
import { batchNormLayer } from './batch-norm-layer';
import { conv2dLayer } from './conv2d-layer';
import { denseLayer } from './dense-layer';
import { sequential, type Layer } from './layer';
import { modelClassifier, type ModelClassifier } from './model-classifier';
import { resolveBaseOptions, type BaseModelOptions } from './model-options';
import { ParameterStore, type WeightInit } from './parameter-store';
import { dropout, globalAvgPool } from './pooling';

/** Options of {@link createWideResNet}. */
export interface WideResNetOptions extends BaseModelOptions {
  /** Depth `6n + 4`. @default 16 */
  readonly depth?: number;
  /** Widen factor k. @default 8 */
  readonly widen?: number;
  /** Dropout between the two convs of each block (the WRN paper's `dropRate`). @default 0 */
  readonly blockDropout?: number;
  /** `'kaiming'`: conv `N(0, 2/fan_out)`, fc bias 0 (the reference WRN code); `'pytorch-default'`. @default 'kaiming' */
  readonly init?: 'kaiming' | 'pytorch-default';
}

function wideBlock(store: ParameterStore, name: string, cin: number, cout: number, stride: number, p: number, init: WeightInit): Layer {
  const bn1 = batchNormLayer(store, `${name}.bn1`, cin, { relu: true });
  const rest = sequential(
    conv2dLayer(store, `${name}.conv1`, { inChannels: cin, outChannels: cout, kernelSize: 3, stride, padding: 1, bias: false, init }),
    batchNormLayer(store, `${name}.bn2`, cout, { relu: true }),
    dropout(p),
    conv2dLayer(store, `${name}.conv2`, { inChannels: cout, outChannels: cout, kernelSize: 3, padding: 1, bias: false, init }),
  );
  const equal = cin === cout && stride === 1;
  const shortcut = equal
    ? undefined
    : conv2dLayer(store, `${name}.convShortcut`, { inChannels: cin, outChannels: cout, kernelSize: 1, stride, bias: false, init });
  return (x, ctx) => {
    const a = bn1(x, ctx);
    // Pre-activation block: the projection shortcut sees the activated input (Zagoruyko & Komodakis code).
    return tf.add(shortcut === undefined ? x : shortcut(a, ctx), rest(a, ctx));
  };
}

/**
 * Wide ResNet WRN-d-k (Zagoruyko & Komodakis 2016; the SAM paper's WRN-16-8, docs/protocol.md §2.4):
 * 3×3 stem to 16 channels, three groups of `(d−4)/6` pre-activation blocks of widths `16k, 32k, 64k`
 * (strides 1, 2, 2), BN-ReLU, global average pool, `fc`. Names follow the reference code
 * (`block1.layer.0.conv1`, `block2.layer.0.convShortcut`, `bn1`, `fc`). Features: `64k` pooled channels.
 *
 * Parameters: WRN-16-8, C = 10: 10,961,370 (hand count in wide-resnet.test.ts; the usual published figure 11.0M).
 * Cost: 3.10 GFLOPs per 32×32 image.
 * @throws InvalidArgumentError on a bad option.
 * @see docs/protocol.md §2.4
 */
export function createWideResNet(options: WideResNetOptions): ModelClassifier {
  const base = resolveBaseOptions('createWideResNet', options, [32, 32, 3]);
  const depth = options.depth ?? 16;
  const widen = options.widen ?? 8;
  check(Number.isInteger(depth) && depth >= 10 && (depth - 4) % 6 === 0, 'createWideResNet', 'depth', 'an integer 6n+4 ≥ 10', depth);
  checkPositiveInteger('createWideResNet', 'widen', widen);
  const blockDropout = options.blockDropout ?? 0;
  check(blockDropout >= 0 && blockDropout < 1, 'createWideResNet', 'blockDropout', 'a number in [0, 1)', blockDropout);
  const initName = options.init ?? 'kaiming';
  check(initName === 'kaiming' || initName === 'pytorch-default', 'createWideResNet', 'init', "'kaiming' or 'pytorch-default'", initName);
  const init: WeightInit = initName === 'kaiming' ? 'kaiming-fan-out' : 'uniform';
  const store = new ParameterStore(`wrn${depth}x${widen}`, base.random);
  const layers: Layer[] = [conv2dLayer(store, 'conv1', { inChannels: base.inputShape[2]!, outChannels: 16, kernelSize: 3, padding: 1, bias: false, init })];
  let channels = 16;
  const n = (depth - 4) / 6;
  [16 * widen, 32 * widen, 64 * widen].forEach((cout, g) => {
    for (let j = 0; j < n; j++) {
      layers.push(wideBlock(store, `block${g + 1}.layer.${j}`, channels, cout, j === 0 && g > 0 ? 2 : 1, blockDropout, init));
      channels = cout;
    }
  });
  layers.push(batchNormLayer(store, 'bn1', channels, { relu: true }), globalAvgPool);
  const fc = denseLayer(store, 'fc', { inFeatures: channels, outFeatures: base.numClasses, biasInit: initName === 'kaiming' ? 'zeros' : 'uniform' });
  const drop = dropout(base.dropout);
  return modelClassifier({
    architecture: 'wrn',
    config: { numClasses: base.numClasses, inputShape: base.inputShape, seed: base.seed, dropout: base.dropout, depth, widen, blockDropout, init: initName },
    store,
    inputShape: base.inputShape,
    numClasses: base.numClasses,
    featureDim: channels,
    body: sequential(...layers),
    head: (f, ctx) => fc(drop(f, ctx), ctx),
  });
}
