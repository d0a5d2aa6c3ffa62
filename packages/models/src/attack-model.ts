import * as tf from '@tensorflow/tfjs-core';
import {
  InvalidArgumentError,
  attackNetworkKinds,
  attackNetworkSpec,
  check,
  checkPositiveInteger,
  seededRandom,
  type AttackNetworkKind,
  type AttackNetworkSpec,
  type DenseLayerSpec,
} from '@mia/core';
import { denseLayer } from './dense-layer';
import { sequential, type Layer } from './layer';
import { modelClassifier, type ModelClassifier } from './model-classifier';
import { ParameterStore, type BiasInit, type WeightInit } from './parameter-store';
import { dropout } from './pooling';

/** The NN attack models of docs/protocol.md §3.2 (`@mia/core`'s {@link AttackNetworkKind}). */
export type AttackModelKind = AttackNetworkKind;

/** The attack model kinds, for option parsing. */
export const attackModelKinds: readonly AttackModelKind[] = attackNetworkKinds;

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

type Inits = readonly [WeightInit, BiasInit];

/** The parameter store's initialisation of a spec's `init` (the kinds of `attackNetworkSpec` use these two). */
function storeInits(spec: AttackNetworkSpec): Inits {
  const init = spec.init ?? 'pytorch';
  if (init === 'pytorch') return ['uniform', 'uniform'];
  if (typeof init === 'object' && init.normalStd === 0.01) return ['normal-0.01', 'zeros'];
  throw new InvalidArgumentError(`createAttackModel: init must be 'pytorch' or { normalStd: 0.01 }, got ${JSON.stringify(init)}`);
}

/**
 * Dense layers (ReLU in the layer's kernel, then dropout) named as a PyTorch `nn.Sequential` numbers
 * them: a Linear, its ReLU and its Dropout take one index each (`layers.0`, `layers.3`, … for NN-CRL),
 * the checkpoint names of the reference code. Returns the layers, the output width and the next index.
 */
function sequentialLayers(store: ParameterStore, prefix: string, inDim: number, specs: readonly DenseLayerSpec[], [init, biasInit]: Inits) {
  const layers: Layer[] = [];
  let [width, index] = [inDim, 0];
  for (const spec of specs) {
    const relu = (spec.activation ?? 'relu') === 'relu';
    layers.push(denseLayer(store, `${prefix}.${index}`, { inFeatures: width, outFeatures: spec.units, init, biasInit, activation: relu ? 'relu' : 'linear' }));
    index += relu ? 2 : 1;
    if ((spec.dropout ?? 0) > 0) {
      layers.push(dropout(spec.dropout!));
      index += 1;
    }
    width = spec.units;
  }
  return { layers, width, index };
}

/**
 * The body (input → last hidden layer of the trunk, through the branches if any) and the head (the
 * trunk's last layer, linear) of an attack network spec, with NN-SEL's module names (`features`,
 * `labels`, `combine`) or `layers`.
 */
function attackLayers(store: ParameterStore, spec: AttackNetworkSpec, inits: Inits): { body: Layer; head: Layer; featureDim: number; outputs: number } {
  const branches = spec.branches ?? [];
  const names = branches.length === 0 ? { trunk: 'layers', branches: [] } : { trunk: 'combine', branches: ['features', 'labels'] };
  const built = branches.map((b, k) => ({ ...b, ...sequentialLayers(store, names.branches[k] ?? `branch${k}`, b.end - b.start, b.layers, inits) }));
  const trunkIn = built.length === 0 ? spec.inputDim : built.reduce((w, b) => w + b.width, 0);
  const last = spec.layers[spec.layers.length - 1]!;
  const hidden = sequentialLayers(store, names.trunk, trunkIn, spec.layers.slice(0, -1), inits);
  const head = denseLayer(store, `${names.trunk}.${hidden.index}`, { inFeatures: hidden.width, outFeatures: last.units, init: inits[0], biasInit: inits[1] });
  const trunk = sequential(...hidden.layers);
  if (built.length === 0) return { body: trunk, head, featureDim: hidden.width, outputs: last.units };
  const branchBodies = built.map((b) => ({ start: b.start, width: b.end - b.start, run: sequential(...b.layers) }));
  const body: Layer = (x, ctx) =>
    trunk(
      tf.concat(
        branchBodies.map((b) => b.run(tf.slice(x, [0, b.start], [-1, b.width]), ctx)),
        1,
      ),
      ctx,
    );
  return { body, head, featureDim: hidden.width, outputs: last.units };
}

/**
 * Builds one of the NN membership attack networks of docs/protocol.md §3.2 as a {@link ModelClassifier}:
 * the architecture and initialisation of `@mia/core`'s `attackNetworkSpec` (`nn-rl`, `nn-mlh`,
 * `nn-sel`, `nn-crl`), so the same kind, width and seed give the weights of `@mia/core`'s
 * `createAttackNetwork` that `@mia/attacks`' NN attacks train. Unlike that one it has logits
 * `[n, 1]` for the sigmoid models `nn-rl`/`nn-sel` (`[n, 2]` for `nn-mlh`/`nn-crl`), features = the
 * last hidden layer, the reference code's checkpoint names (`layers.0.weight`, NN-SEL's `features`,
 * `labels` and `combine` branches) and dropout seeded per forward pass; the loss (BCE, CE, MSE on the
 * sigmoid) is the caller's.
 * @throws InvalidArgumentError on an unknown kind or a bad `inputDim` (odd for `nn-sel`).
 * @see docs/protocol.md §3.2
 */
export function createAttackModel(kind: AttackModelKind, options: AttackModelOptions): ModelClassifier {
  check(attackModelKinds.includes(kind), 'createAttackModel', 'kind', attackModelKinds.join(' | '), kind);
  checkPositiveInteger('createAttackModel', 'inputDim', options.inputDim);
  const seed = options.seed ?? 0;
  check(Number.isInteger(seed), 'createAttackModel', 'seed', 'an integer', seed);
  const d = options.inputDim;
  if (kind === 'nn-sel') check(d % 2 === 0, 'createAttackModel', 'inputDim', 'even for nn-sel (posterior ⊕ one-hot label)', d);
  const spec = attackNetworkSpec(kind, d, seed);
  const store = new ParameterStore(kind.replace('-', ''), seededRandom(seed));
  const { body, head, featureDim, outputs } = attackLayers(store, spec, storeInits(spec));
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
