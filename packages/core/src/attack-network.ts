import * as tf from '@tensorflow/tfjs-core';
import type { Classifier, ParameterGroup } from './classifier';
import { denseBias } from './dense-bias';
import { InvalidArgumentError } from './errors';
import { deriveSeed, seededRandom, type Random } from './random';
import { check, checkPositiveInteger } from './validate';

/** One dense layer of an attack network. */
export interface DenseLayerSpec {
  /** Output width. */
  readonly units: number;
  /** Activation after the layer. @default 'relu' (the last layer is always linear) */
  readonly activation?: 'relu' | 'linear';
  /** Dropout rate applied after the activation in training mode. @default 0 */
  readonly dropout?: number;
}

/**
 * How the weights and biases of an attack network are drawn, layer after layer (weight then bias)
 * from one stream seeded with the spec's `seed`:
 * - `'pytorch'`: PyTorch's `nn.Linear` default, `W, b ~ U(±1/√fan_in)`;
 * - `'glorot'`: Keras' default, `W ~ U(±√(6/(fan_in + fan_out)))`, `b = 0` (MemGuard);
 * - `{ normalStd }`: `W ~ N(0, normalStd²)`, `b = 0` (NN-SEL, `normalStd` 0.01).
 * Zero biases draw nothing from the stream.
 */
export type AttackNetworkInit = 'pytorch' | 'glorot' | { readonly normalStd: number };

/** Architecture of an attack network (docs/protocol.md §3.2). */
export interface AttackNetworkSpec {
  /** Width of the feature vector. */
  readonly inputDim: number;
  /** Optional input branches (NN-SEL): each runs its layers on columns `[start, end)`; outputs are concatenated. */
  readonly branches?: readonly { readonly start: number; readonly end: number; readonly layers: readonly DenseLayerSpec[] }[];
  /** The trunk (or the combine part after the branches); the last layer has 1 or 2 units. */
  readonly layers: readonly DenseLayerSpec[];
  /** {@link AttackNetworkInit}. @default 'pytorch' */
  readonly init?: AttackNetworkInit;
  /** Initialisation seed. @default 0 */
  readonly seed?: number;
}

/** Process-wide counter that makes every network's variable names unique (tfjs requires unique names). */
let instances = 0;

function initialValues(size: number, fanIn: number, fanOut: number, init: AttackNetworkInit, isBias: boolean, random: Random): Float32Array {
  if (init === 'pytorch' || (init === 'glorot' && !isBias)) {
    const bound = init === 'pytorch' ? 1 / Math.sqrt(fanIn) : Math.sqrt(6 / (fanIn + fanOut));
    return Float32Array.from({ length: size }, () => (2 * random.next() - 1) * bound);
  }
  if (isBias) return new Float32Array(size);
  const { normalStd } = init as { readonly normalStd: number };
  return Float32Array.from({ length: size }, () => random.normal(0, normalStd));
}

function denseGroup(name: string, fanIn: number, units: number, init: AttackNetworkInit, random: Random, uid: string): ParameterGroup {
  const make = (values: Float32Array, shape: number[], suffix: string) => {
    const t = tf.tensor(values, shape);
    const v = tf.variable(t, true, `attackNet_${uid}/${name}.${suffix}`);
    t.dispose();
    return v;
  };
  const weight = make(initialValues(fanIn * units, fanIn, units, init, false, random), [fanIn, units], 'weight');
  return { name, kind: 'dense', weight, bias: make(initialValues(units, fanIn, units, init, true, random), [units], 'bias') };
}

function checkSpec(spec: AttackNetworkSpec): AttackNetworkInit {
  checkPositiveInteger('createAttackNetwork', 'inputDim', spec.inputDim);
  const init = spec.init ?? 'pytorch';
  const normal = typeof init === 'object' && init !== null && Number.isFinite(init.normalStd) && init.normalStd > 0;
  check(init === 'pytorch' || init === 'glorot' || normal, 'createAttackNetwork', 'init', "'pytorch', 'glorot' or { normalStd > 0 }", init);
  const units = (prefix: string, layers: readonly DenseLayerSpec[]) =>
    layers.forEach((layer, i) => checkPositiveInteger('createAttackNetwork', `${prefix}[${i}].units`, layer.units));
  (spec.branches ?? []).forEach((b, k) => {
    const inRange = Number.isInteger(b.start) && Number.isInteger(b.end) && b.start >= 0 && b.start < b.end && b.end <= spec.inputDim;
    check(inRange, 'createAttackNetwork', `branches[${k}]`, `columns [start, end) with 0 <= start < end <= ${spec.inputDim}`, { start: b.start, end: b.end });
    check(b.layers.length > 0, 'createAttackNetwork', `branches[${k}].layers`, 'at least one layer', b.layers);
    units(`branch${k}`, b.layers);
  });
  units('trunk', spec.layers);
  const outUnits = spec.layers[spec.layers.length - 1]?.units;
  if (outUnits !== 1 && outUnits !== 2) throw new InvalidArgumentError(`createAttackNetwork: the last layer must have 1 or 2 units, got ${outUnits}`);
  return init;
}

/**
 * A small attack MLP as a 2-class {@link Classifier} (class 1 = member), so it trains with
 * {@link train}. A last layer with one unit z gives logits `[0, z]`: then softmax[:,1] =
 * sigmoid(z) and cross-entropy equals BCE on sigmoid(z) exactly, so one loop serves every variant.
 * The features are the trunk's input (the concatenated branch outputs, or the input itself).
 * The same spec and seed give the same weights; the NN attacks' architectures are {@link attackNetworkSpec}.
 *
 * @param spec - {@link AttackNetworkSpec}.
 * @returns The network; `dispose()` frees its variables.
 * @throws InvalidArgumentError on a bad width, init, empty branch or a last layer of neither 1 nor 2 units.
 * @see docs/protocol.md §3.2 (architectures and initialisations).
 */
export function createAttackNetwork(spec: AttackNetworkSpec): Classifier {
  const init = checkSpec(spec);
  const random = seededRandom(spec.seed ?? 0);
  const uid = (instances++).toString(36);
  const build = (prefix: string, inDim: number, layers: readonly DenseLayerSpec[]) => {
    let width = inDim;
    return layers.map((layer, i) => {
      const group = denseGroup(`${prefix}.${i}`, width, layer.units, init, random, uid);
      width = layer.units;
      return { layer, group };
    });
  };
  const branches = (spec.branches ?? []).map((b, k) => ({ ...b, built: build(`branch${k}`, b.end - b.start, b.layers) }));
  const trunkIn = branches.length === 0 ? spec.inputDim : branches.reduce((w, b) => w + b.layers[b.layers.length - 1]!.units, 0);
  const trunk = build('trunk', trunkIn, spec.layers);
  const groups = [...branches.flatMap((b) => b.built.map((l) => l.group)), ...trunk.map((l) => l.group)];
  const variables = groups.flatMap((g) => [g.weight, g.bias!]);
  const run = (h: tf.Tensor2D, built: typeof trunk, training: boolean, seed: number, isTrunk: boolean): tf.Tensor2D => {
    built.forEach(({ layer, group }, i) => {
      const last = isTrunk && i === built.length - 1;
      // matMul + bias + ReLU: one kernel each way where the backend fuses dense layers (denseBias).
      h = denseBias(h, group.weight, group.bias!, !last && (layer.activation ?? 'relu') === 'relu' ? 'relu' : 'linear');
      if (!last && training && (layer.dropout ?? 0) > 0) h = tf.dropout(h, layer.dropout!, undefined, deriveSeed(seed, group.name)) as tf.Tensor2D;
    });
    return h;
  };
  const oneUnit = spec.layers[spec.layers.length - 1]!.units === 1;
  return {
    numClasses: 2,
    inputShape: [spec.inputDim],
    featureDim: trunkIn,
    trainableVariables: variables,
    stateVariables: [],
    parameterGroups: groups,
    forward(x, options) {
      return tf.tidy(() => {
        const input = tf.reshape(x, [x.shape[0]!, spec.inputDim]) as tf.Tensor2D;
        const seed = options.seed ?? 0;
        const slice = (b: (typeof branches)[number]) => tf.slice(input, [0, b.start], [-1, b.end - b.start]) as tf.Tensor2D;
        const features =
          branches.length === 0
            ? input
            : (tf.concat(
                branches.map((b) => run(slice(b), b.built, options.training, seed, false)),
                1,
              ) as tf.Tensor2D);
        const out = run(features, trunk, options.training, seed, true);
        const logits = oneUnit ? (tf.concat([tf.zerosLike(out), out], 1) as tf.Tensor2D) : out;
        return { logits, features };
      });
    },
    dispose() {
      for (const v of variables) v.dispose();
    },
  };
}
