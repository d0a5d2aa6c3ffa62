import * as tf from '@tensorflow/tfjs-core';
import { check, checkPositiveInteger, seededRandom } from '@mia/core';
import { denseLayer } from './dense-layer';
import { sequential, type Layer } from './layer';
import { modelClassifier, type ModelClassifier } from './model-classifier';
import { ParameterStore, type BiasInit, type WeightInit } from './parameter-store';
import { dropout, relu } from './pooling';

/** The NN attack models of docs/protocol.md §3.2. */
export type AttackModelKind = 'nn-rl' | 'nn-mlh' | 'nn-sel' | 'nn-crl';

/** The attack model kinds, for option parsing. */
export const attackModelKinds: readonly AttackModelKind[] = ['nn-rl', 'nn-mlh', 'nn-sel', 'nn-crl'];

/** Options of {@link createAttackModel}. */
export interface AttackModelOptions {
  /**
   * Width of the attack features: C for `nn-rl` (sorted logits) and `nn-mlh` (posteriors, or the
   * number of queries in the augmentation attack, §3.3); 2C for `nn-sel` and `nn-crl`
   * (posterior ⊕ one-hot label; `nn-sel` splits it in halves).
   */
  readonly inputDim: number;
  /** Initialisation seed (and dropout seed of `nn-crl` when `forward` gets none). @default 0 */
  readonly seed?: number;
}

type Stack = ReadonlyArray<number | 'relu' | 'dropout'>;

function stack(store: ParameterStore, prefix: string, cin: number, spec: Stack, init: WeightInit, biasInit: BiasInit): [Layer, number] {
  const layers: Layer[] = [];
  let width = cin;
  spec.forEach((s, i) => {
    if (s === 'relu') {
      // A ReLU right after a dense layer runs in that layer's kernel (denseBias); elsewhere on its own.
      if (typeof spec[i - 1] !== 'number') layers.push(relu);
    } else if (s === 'dropout') layers.push(dropout(0.2));
    else {
      const activation = spec[i + 1] === 'relu' ? 'relu' : 'linear';
      layers.push(denseLayer(store, `${prefix}.${i}`, { inFeatures: width, outFeatures: s, init, biasInit, activation }));
      width = s;
    }
  });
  return [sequential(...layers), width];
}

/**
 * Builds one of the NN membership attack models of docs/protocol.md §3.2 as a {@link ModelClassifier}
 * (input `[n, inputDim]`, logits `[n, 1]` for the sigmoid models `nn-rl`/`nn-sel`, `[n, 2]` for
 * `nn-mlh`/`nn-crl`; features = the last hidden layer). The attacks package trains it through an
 * injected function (it cannot import `@mia/models`); the loss (BCE, CE, MSE on the sigmoid) is the
 * caller's.
 * - `nn-rl` (RelaxLoss): `Linear(C,100)-ReLU-Linear(100,1)`.
 * - `nn-mlh` (CCL/PAST, MLHospital `MLP_BLACKBOX`): `Linear(C,64)-ReLU-Linear(64,32)-ReLU-Linear(32,2)`.
 * - `nn-sel` (SELENA `InferenceAttack_HZ`): branch `features` on the posterior
 *   (`C-1024-512-64`, ReLU), branch `labels` on the one-hot label (`C-128-64`, ReLU), `combine` on
 *   their concatenation (`128-512-256-128-64-1`, ReLU); weights `N(0, 0.01²)`, biases 0.
 * - `nn-crl` (CRL): `Linear(2C,128)-ReLU-Dropout(0.2)-Linear(128,64)-ReLU-Dropout(0.2)-Linear(64,64)-Linear(64,2)`.
 * Others use PyTorch-default init.
 * @throws InvalidArgumentError on an unknown kind or a bad `inputDim` (odd for `nn-sel`).
 * @see docs/protocol.md §3.2
 */
export function createAttackModel(kind: AttackModelKind, options: AttackModelOptions): ModelClassifier {
  check(attackModelKinds.includes(kind), 'createAttackModel', 'kind', attackModelKinds.join(' | '), kind);
  checkPositiveInteger('createAttackModel', 'inputDim', options.inputDim);
  const seed = options.seed ?? 0;
  check(Number.isInteger(seed), 'createAttackModel', 'seed', 'an integer', seed);
  const d = options.inputDim;
  const store = new ParameterStore(kind.replace('-', ''), seededRandom(seed));
  let body: Layer;
  let head: Layer;
  let featureDim: number;
  let outputs = 2;
  if (kind === 'nn-sel') {
    check(d % 2 === 0, 'createAttackModel', 'inputDim', 'even for nn-sel (posterior ⊕ one-hot label)', d);
    const [features] = stack(store, 'features', d / 2, [1024, 'relu', 512, 'relu', 64, 'relu'], 'normal-0.01', 'zeros');
    const [labels] = stack(store, 'labels', d / 2, [128, 'relu', 64, 'relu'], 'normal-0.01', 'zeros');
    const [combine] = stack(store, 'combine', 128, [512, 'relu', 256, 'relu', 128, 'relu', 64, 'relu'], 'normal-0.01', 'zeros');
    body = (x, ctx) => {
      const [p, y] = tf.split(x, 2, 1);
      return combine(tf.concat([features(p!, ctx), labels(y!, ctx)], 1), ctx);
    };
    head = denseLayer(store, 'combine.8', { inFeatures: 64, outFeatures: 1, init: 'normal-0.01', biasInit: 'zeros' });
    [featureDim, outputs] = [64, 1];
  } else {
    const hidden: Stack = kind === 'nn-rl' ? [100, 'relu'] : kind === 'nn-mlh' ? [64, 'relu', 32, 'relu'] : [128, 'relu', 'dropout', 64, 'relu', 'dropout', 64];
    [body, featureDim] = stack(store, 'layers', d, hidden, 'uniform', 'uniform');
    if (kind === 'nn-rl') outputs = 1;
    head = denseLayer(store, `layers.${hidden.length}`, { inFeatures: featureDim, outFeatures: outputs });
  }
  return modelClassifier({
    architecture: kind,
    config: { inputDim: d, seed },
    store,
    inputShape: [d],
    numClasses: outputs,
    featureDim,
    body,
    head,
  });
}
