import { conv2dLayer } from './conv2d-layer';
import { denseLayer } from './dense-layer';
import { sequential } from './layer';
import { modelClassifier, type ModelClassifier } from './model-classifier';
import { resolveBaseOptions, type BaseModelOptions } from './model-options';
import { normConfig, normLayer, resolveNorm, type NormOptions } from './norm-layer';
import { ParameterStore } from './parameter-store';
import { dropout, globalAvgPool, maxPool } from './pooling';

/** Options of {@link createSmallCnn}. */
export interface SmallCnnOptions extends BaseModelOptions, NormOptions {}

/**
 * A small fast CNN for CPU-scale runs, the `SmallCNN` of `bench/pytorch/models_torch.py`:
 * `conv32-BN-ReLU, conv32-BN-ReLU, maxpool2, conv64-BN-ReLU, maxpool2, conv128-BN-ReLU, GAP, Linear(128, C)`
 * (3×3 convs with bias, padding 1; PyTorch-default init). Names follow its `nn.Sequential` indices
 * (`f.0`, `f.1`, …, `fc`). Features: the 128 pooled channels.
 *
 * Parameters: 104,298 for C = 10 (hand count: convs 896 + 9,248 + 18,496 + 73,856, BN 2·(32+32+64+128),
 * fc 1,290). Cost: 39,520,768 FLOPs per 32×32 image (≈ 0.04 GFLOPs; 1/28 of ResNet-18).
 *
 * `norm: 'group'` puts a GroupNorm where each BatchNorm is (same names and trainable parameters, no
 * running statistics; 32 groups by default, so one channel per group in the first two): the variant
 * for DP-SGD, whose per-example gradients a batch norm would mix. `norm: 'none'` drops them.
 * @throws InvalidArgumentError on a bad option.
 * @see docs/protocol.md §4.16 (the GroupNorm variant)
 */
export function createSmallCnn(options: SmallCnnOptions): ModelClassifier {
  const base = resolveBaseOptions('createSmallCnn', options, [32, 32, 3]);
  const norm = resolveNorm('createSmallCnn', options);
  const store = new ParameterStore('smallCnn', base.random);
  const cbr = (index: number, cin: number, cout: number) =>
    sequential(
      conv2dLayer(store, `f.${index}`, { inChannels: cin, outChannels: cout, kernelSize: 3, padding: 1 }),
      normLayer(store, `f.${index + 1}`, cout, norm, { relu: true }),
    );
  const body = sequential(cbr(0, base.inputShape[2]!, 32), cbr(3, 32, 32), maxPool(2, 2), cbr(7, 32, 64), maxPool(2, 2), cbr(11, 64, 128), globalAvgPool);
  const fc = denseLayer(store, 'fc', { inFeatures: 128, outFeatures: base.numClasses });
  const drop = dropout(base.dropout);
  return modelClassifier({
    architecture: 'small-cnn',
    config: { numClasses: base.numClasses, inputShape: base.inputShape, seed: base.seed, dropout: base.dropout, ...normConfig(norm) },
    store,
    inputShape: base.inputShape,
    numClasses: base.numClasses,
    featureDim: 128,
    body,
    head: (f, ctx) => fc(drop(f, ctx), ctx),
  });
}
