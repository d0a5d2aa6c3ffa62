import { check } from '@mia/core';
import { denseLayer } from './dense-layer';
import type { Layer } from './layer';
import { modelClassifier, type ModelClassifier } from './model-classifier';
import { resolveBaseOptions, type BaseModelOptions } from './model-options';
import { ParameterStore } from './parameter-store';
import { dropout } from './pooling';

/** Options of {@link createMlp}. */
export interface MlpOptions extends Omit<BaseModelOptions, 'inputShape'> {
  /** Input width: 600 (Purchase100) or 6169 (Texas100). @default 600 */
  readonly inputDim?: number;
  /** Hidden widths. @default [1024, 512, 256, 128] */
  readonly hidden?: readonly number[];
  /** Hidden activation. @default 'tanh' */
  readonly activation?: 'tanh' | 'relu';
}

/**
 * The Purchase/Texas MLP of RelaxLoss, MLHospital, CCL, PAST and SELENA (docs/protocol.md §2.7):
 * `Linear(d,1024)-Tanh-Linear(1024,512)-Tanh-Linear(512,256)-Tanh-Linear(256,128)-Tanh-[Dropout(p)]-Linear(128,C)`,
 * PyTorch-default initialisation `U(−1/√fan_in, 1/√fan_in)` for weights and biases. Features are
 * the 128-wide last hidden activations. Parameter names follow RelaxLoss (`features.0`, …, `classifier`).
 *
 * Cost: 2·(600·1024 + 1024·512 + 512·256 + 256·128 + 128·100) = 2,630,656 FLOPs per Purchase
 * example; 14,035,968 per Texas example (d = 6169).
 * @throws InvalidArgumentError on a bad option.
 * @see docs/protocol.md §2.7, §4.10 (dropout before the last layer)
 */
export function createMlp(options: MlpOptions): ModelClassifier {
  const inputDim = options.inputDim ?? 600;
  const base = resolveBaseOptions('createMlp', { ...options, inputShape: [inputDim] }, [600]);
  const hidden = [...(options.hidden ?? [1024, 512, 256, 128])];
  check(
    hidden.every((h) => Number.isInteger(h) && h > 0),
    'createMlp',
    'hidden',
    'positive integers',
    options.hidden,
  );
  const activation = options.activation ?? 'tanh';
  check(activation === 'tanh' || activation === 'relu', 'createMlp', 'activation', "'tanh' or 'relu'", activation);
  const store = new ParameterStore('mlp', base.random);
  const layers: Layer[] = [];
  let width = inputDim;
  hidden.forEach((h, i) => {
    layers.push(denseLayer(store, `features.${2 * i}`, { inFeatures: width, outFeatures: h, activation }));
    width = h;
  });
  const drop = dropout(base.dropout);
  const classifier = denseLayer(store, 'classifier', { inFeatures: width, outFeatures: base.numClasses });
  return modelClassifier({
    architecture: 'mlp',
    config: { numClasses: base.numClasses, inputDim, hidden, activation, dropout: base.dropout, seed: base.seed },
    store,
    inputShape: [inputDim],
    numClasses: base.numClasses,
    featureDim: width,
    body: (x, ctx) => layers.reduce((h, layer) => layer(h, ctx), x),
    head: (f, ctx) => classifier(drop(f, ctx), ctx),
  });
}
