import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkPositiveInteger, denseBias, deriveSeed, seededRandom, type Classifier, type ParameterGroup, type Random } from '@mia/core';

/** One dense layer of an attack network. */
export interface DenseLayerSpec {
  /** Output width. */
  readonly units: number;
  /** Activation after the layer. @default 'relu' (the last layer is always linear) */
  readonly activation?: 'relu' | 'linear';
  /** Dropout rate applied after the activation in training mode. @default 0 */
  readonly dropout?: number;
}

/** Architecture of an attack network (docs/protocol.md §3.2). */
export interface AttackNetworkSpec {
  /** Width of the feature vector. */
  readonly inputDim: number;
  /** Optional input branches (NN-SEL): each runs its layers on columns `[start, end)`; outputs are concatenated. */
  readonly branches?: readonly { readonly start: number; readonly end: number; readonly layers: readonly DenseLayerSpec[] }[];
  /** The trunk (or the combine part after the branches); the last layer has 1 or 2 units. */
  readonly layers: readonly DenseLayerSpec[];
  /** `'pytorch'`: `W, b ~ U(±1/√fan_in)`; `{normalStd}`: `W ~ N(0, std²)`, `b = 0` (NN-SEL). @default 'pytorch' */
  readonly init?: 'pytorch' | { readonly normalStd: number };
  /** Initialisation seed. @default 0 */
  readonly seed?: number;
}

let instances = 0;

function denseGroup(name: string, fanIn: number, units: number, spec: AttackNetworkSpec, random: Random, uid: string): ParameterGroup {
  const init = spec.init ?? 'pytorch';
  const bound = 1 / Math.sqrt(fanIn);
  const draw = (size: number, isBias: boolean) =>
    Float32Array.from({ length: size }, () => (init === 'pytorch' ? (2 * random.next() - 1) * bound : isBias ? 0 : random.normal(0, init.normalStd)));
  const make = (values: Float32Array, shape: number[], suffix: string) => {
    const t = tf.tensor(values, shape);
    const v = tf.variable(t, true, `attackNet_${uid}/${name}.${suffix}`);
    t.dispose();
    return v;
  };
  return { name, kind: 'dense', weight: make(draw(fanIn * units, false), [fanIn, units], 'weight'), bias: make(draw(units, true), [units], 'bias') };
}

/**
 * A small attack MLP as a 2-class {@link Classifier} (class 1 = member), so it trains with
 * `@mia/core`'s `train`. A last layer with one unit z gives logits `[0, z]`: then softmax[:,1] =
 * sigmoid(z) and cross-entropy equals BCE on sigmoid(z) exactly, so one loop serves every variant.
 *
 * @param spec - {@link AttackNetworkSpec}.
 * @returns The network; `dispose()` frees its variables.
 * @see docs/protocol.md §3.2 (architectures and initialisations).
 */
export function createAttackNetwork(spec: AttackNetworkSpec): Classifier {
  checkPositiveInteger('createAttackNetwork', 'inputDim', spec.inputDim);
  const random = seededRandom(spec.seed ?? 0);
  const uid = (instances++).toString(36);
  const build = (prefix: string, inDim: number, layers: readonly DenseLayerSpec[]) => {
    let width = inDim;
    return layers.map((layer, i) => {
      checkPositiveInteger('createAttackNetwork', `${prefix}[${i}].units`, layer.units);
      const group = denseGroup(`${prefix}.${i}`, width, layer.units, spec, random, uid);
      width = layer.units;
      return { layer, group };
    });
  };
  const branches = (spec.branches ?? []).map((b, k) => ({ ...b, built: build(`branch${k}`, b.end - b.start, b.layers) }));
  const trunkIn = branches.length === 0 ? spec.inputDim : branches.reduce((w, b) => w + b.layers[b.layers.length - 1]!.units, 0);
  const trunk = build('trunk', trunkIn, spec.layers);
  const outUnits = spec.layers[spec.layers.length - 1]?.units;
  if (outUnits !== 1 && outUnits !== 2) throw new InvalidArgumentError(`createAttackNetwork: the last layer must have 1 or 2 units, got ${outUnits}`);
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
        const features =
          branches.length === 0
            ? input
            : (tf.concat(
                branches.map((b) => run(tf.slice(input, [0, b.start], [-1, b.end - b.start]), b.built, options.training, seed, false)),
                1,
              ) as tf.Tensor2D);
        const out = run(features, trunk, options.training, seed, true);
        const logits = outUnits === 1 ? (tf.concat([tf.zerosLike(out), out], 1) as tf.Tensor2D) : out;
        return { logits, features };
      });
    },
    dispose() {
      for (const v of variables) v.dispose();
    },
  };
}
