import * as tf from '@tensorflow/tfjs-core';
import { batchNormLayer } from './batch-norm-layer';
import { conv2dLayer } from './conv2d-layer';
import { denseLayer } from './dense-layer';
import { sequential, type Layer } from './layer';
import { modelClassifier, type ModelClassifier } from './model-classifier';
import { resolveBaseOptions, type BaseModelOptions } from './model-options';
import { ParameterStore } from './parameter-store';
import { avgPool, dropout, globalAvgPool, maxPool } from './pooling';

/** Options of {@link createInceptionV4}. `dropout` defaults to 0.2 (the reference's `Dropout2d(1 − 0.8)`). */
export type InceptionV4Options = BaseModelOptions;

type Kernel = number | readonly [number, number];

/**
 * CIFAR-sized Inception-v4 (Szegedy et al. 2017, Figs. 3–8) as in weiaicunzai/pytorch-cifar100
 * `inceptionv4.py`, used by the SAM-privacy paper's Appendix E: a stride-1 stem (first 3×3 conv
 * unpadded, 32×32 → 30×30), 4 × Inception-A, Reduction-A (k, l, m, n = 192, 224, 256, 384),
 * 7 × Inception-B, Reduction-B, 3 × Inception-C, global average pool (the reference's
 * `AvgPool2d(7)` at 32×32 input), dropout 0.2, `linear`. Every conv is `BasicConv2d`
 * (conv without bias + BN + ReLU), named `<module>.conv` / `<module>.bn`. Features: 1536 channels.
 *
 * Parameters: 41,296,516 for C = 100. Cost: 15.0 GFLOPs per 32×32
 * image, by far the most expensive model here.
 * @throws InvalidArgumentError on a bad option.
 * @see docs/protocol.md §2.4 (Appendix E models)
 */
export function createInceptionV4(options: InceptionV4Options): ModelClassifier {
  const base = resolveBaseOptions('createInceptionV4', options, [32, 32, 3], 0.2);
  const store = new ParameterStore('inceptionV4', base.random);
  const conv = (name: string, cin: number, cout: number, k: Kernel, stride = 1, padding: Kernel = 0): Layer =>
    sequential(
      conv2dLayer(store, `${name}.conv`, { inChannels: cin, outChannels: cout, kernelSize: k, stride, padding, bias: false }),
      batchNormLayer(store, `${name}.bn`, cout, { relu: true }),
    );
  const cat =
    (...branches: Layer[]): Layer =>
    (x, ctx) =>
      tf.concat(
        branches.map((b) => b(x, ctx)),
        3,
      );
  const chain = (prefix: string, cin: number, specs: ReadonlyArray<readonly [number, Kernel, Kernel?, number?]>): Layer => {
    let c = cin;
    return sequential(
      ...specs.map(([cout, k, pad = 0, stride = 1], i) => {
        const layer = conv(`${prefix}.${i}`, c, cout, k, stride, pad);
        c = cout;
        return layer;
      }),
    );
  };
  const poolConv = (name: string, cin: number, cout: number) => sequential(avgPool(3, 1, 1), conv(`${name}.1`, cin, cout, 1));
  const [k1x7, k7x1, p1x7, p7x1, k1x3, k3x1, p1x3, p3x1] = [
    [1, 7],
    [7, 1],
    [0, 3],
    [3, 0],
    [1, 3],
    [3, 1],
    [0, 1],
    [1, 0],
  ] as const;
  const cin = base.inputShape[2]!;
  const stem = sequential(
    chain('stem.conv1', cin, [
      [32, 3],
      [32, 3, 1],
      [64, 3, 1],
    ]),
    cat(conv('stem.branch3x3_conv', 64, 96, 3, 1, 1), maxPool(3, 1, 1)),
    cat(
      chain('stem.branch7x7a', 160, [
        [64, 1],
        [64, k7x1, p7x1],
        [64, k1x7, p1x7],
        [96, 3, 1],
      ]),
      chain('stem.branch7x7b', 160, [
        [64, 1],
        [96, 3, 1],
      ]),
    ),
    cat(maxPool(3, 1, 1), conv('stem.branchpoolb', 192, 192, 3, 1, 1)),
  );
  const inceptionA = (p: string) =>
    cat(
      chain(`${p}.branch3x3stack`, 384, [
        [64, 1],
        [96, 3, 1],
        [96, 3, 1],
      ]),
      chain(`${p}.branch3x3`, 384, [
        [64, 1],
        [96, 3, 1],
      ]),
      conv(`${p}.branch1x1`, 384, 96, 1),
      poolConv(`${p}.branchpool`, 384, 96),
    );
  const reductionA = cat(
    chain('reduction_a.branch3x3stack', 384, [
      [192, 1],
      [224, 3, 1],
      [256, 3, 0, 2],
    ]),
    conv('reduction_a.branch3x3', 384, 384, 3, 2),
    maxPool(3, 2),
  );
  const inceptionB = (p: string) =>
    cat(
      chain(`${p}.branch7x7stack`, 1024, [
        [192, 1],
        [192, k1x7, p1x7],
        [224, k7x1, p7x1],
        [224, k1x7, p1x7],
        [256, k7x1, p7x1],
      ]),
      chain(`${p}.branch7x7`, 1024, [
        [192, 1],
        [224, k1x7, p1x7],
        [256, k7x1, p7x1],
      ]),
      conv(`${p}.branch1x1`, 1024, 384, 1),
      poolConv(`${p}.branchpool`, 1024, 128),
    );
  const reductionB = cat(
    chain('reduction_b.branch7x7', 1024, [
      [256, 1],
      [256, k1x7, p1x7],
      [320, k7x1, p7x1],
      [320, 3, 1, 2],
    ]),
    chain('reduction_b.branch3x3', 1024, [
      [192, 1],
      [192, 3, 1, 2],
    ]),
    maxPool(3, 2, 1),
  );
  const inceptionC = (p: string) => {
    const stack = chain(`${p}.branch3x3stack`, 1536, [
      [384, 1],
      [448, k1x3, p1x3],
      [512, k3x1, p3x1],
    ]);
    const stackSplit = cat(conv(`${p}.branch3x3stacka`, 512, 256, k1x3, 1, p1x3), conv(`${p}.branch3x3stackb`, 512, 256, k3x1, 1, p3x1));
    const b3 = conv(`${p}.branch3x3`, 1536, 384, 1);
    const b3Split = cat(conv(`${p}.branch3x3a`, 384, 256, k3x1, 1, p3x1), conv(`${p}.branch3x3b`, 384, 256, k1x3, 1, p1x3));
    return cat(conv(`${p}.branch1x1`, 1536, 256, 1), sequential(b3, b3Split), sequential(stack, stackSplit), poolConv(`${p}.branchpool`, 1536, 256));
  };
  const repeat = (n: number, make: (i: number) => Layer) => sequential(...Array.from({ length: n }, (_, i) => make(i)));
  const body = sequential(
    stem,
    repeat(4, (i) => inceptionA(`inception_a.InceptionA_${i}`)),
    reductionA,
    repeat(7, (i) => inceptionB(`inception_b.InceptionB_${i}`)),
    reductionB,
    repeat(3, (i) => inceptionC(`inception_c.InceptionC_${i}`)),
    globalAvgPool,
  );
  const linear = denseLayer(store, 'linear', { inFeatures: 1536, outFeatures: base.numClasses });
  const drop = dropout(base.dropout);
  return modelClassifier({
    architecture: 'inception-v4',
    config: { numClasses: base.numClasses, inputShape: base.inputShape, seed: base.seed, dropout: base.dropout },
    store,
    inputShape: base.inputShape,
    numClasses: base.numClasses,
    featureDim: 1536,
    body,
    head: (f, ctx) => linear(drop(f, ctx), ctx),
  });
}
