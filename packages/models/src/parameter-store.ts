import * as tf from '@tensorflow/tfjs-core';
import type { ParameterGroup, ParameterKind, Random } from '@mia/core';

/**
 * How a weight tensor is initialised.
 * - `uniform`: PyTorch's default for `Linear`/`Conv2d`, `U(−1/√fan_in, 1/√fan_in)` (docs/protocol.md §0).
 * - `kaiming-fan-out`: `N(0, 2/fan_out)`, torchvision ResNet's `kaiming_normal_(mode='fan_out')`.
 * - `kaiming-fan-in`: `N(0, 2/fan_in)`, torchvision DenseNet's `kaiming_normal_()`.
 * - `normal-0.01`: `N(0, 0.01²)`, the NN-SEL attack model (docs/protocol.md §3.2).
 */
export type WeightInit = 'uniform' | 'kaiming-fan-out' | 'kaiming-fan-in' | 'normal-0.01';

/** How a bias is initialised: PyTorch's default `U(−1/√fan_in, 1/√fan_in)` or zeros. */
export type BiasInit = 'uniform' | 'zeros';

/** Process-wide counter that makes every model's variable names unique (tfjs requires unique names). */
let modelCounter = 0;

/**
 * Creates and records the variables of one model: trainable parameters, batch-norm state and
 * the named parameter groups, with seeded initialisation.
 *
 * Variables get the global name `<prefix>_<n>/<localName>` (unique in the tfjs engine, as the
 * optimizers key gradients by variable name) and keep their PyTorch-like local name
 * (`layer1.0.conv1.weight`) for checkpoints.
 * @internal
 */
export class ParameterStore {
  readonly trainable: tf.Variable[] = [];
  readonly state: tf.Variable[] = [];
  readonly groups: ParameterGroup[] = [];
  /** Local (checkpoint) name of every variable, trainable and state. */
  readonly localNames = new Map<tf.Variable, string>();
  private readonly scope: string;

  constructor(
    prefix: string,
    readonly random: Random,
  ) {
    modelCounter += 1;
    this.scope = `${prefix}_${modelCounter}`;
  }

  /** Creates a variable from `values` (or zeros) and records it under `localName`. */
  variable(localName: string, shape: number[], values: Float32Array | undefined, trainable: boolean): tf.Variable {
    const size = shape.reduce((a, b) => a * b, 1);
    const init = tf.tensor(values ?? new Float32Array(size), shape, 'float32');
    const v = tf.variable(init, trainable, `${this.scope}/${localName}`);
    init.dispose();
    (trainable ? this.trainable : this.state).push(v);
    this.localNames.set(v, localName);
    return v;
  }

  /** Values for a weight of `shape` with fan-in/fan-out given, drawn from this store's stream. */
  weightValues(shape: number[], fanIn: number, fanOut: number, init: WeightInit): Float32Array {
    const size = shape.reduce((a, b) => a * b, 1);
    const out = new Float32Array(size);
    if (init === 'uniform') return this.fillUniform(out, 1 / Math.sqrt(fanIn));
    const std = init === 'normal-0.01' ? 0.01 : Math.sqrt(2 / (init === 'kaiming-fan-out' ? fanOut : fanIn));
    for (let i = 0; i < size; i++) out[i] = this.random.normal(0, std);
    return out;
  }

  /** `U(−bound, bound)` values for a bias of length `n`, or zeros. */
  biasValues(n: number, fanIn: number, init: BiasInit): Float32Array {
    const out = new Float32Array(n);
    return init === 'zeros' ? out : this.fillUniform(out, 1 / Math.sqrt(fanIn));
  }

  /** Records a parameter group (conv/dense/batchnorm module). */
  group(name: string, kind: ParameterKind, weight: tf.Variable, bias?: tf.Variable): void {
    this.groups.push(bias === undefined ? { name, kind, weight } : { name, kind, weight, bias });
  }

  private fillUniform(out: Float32Array, bound: number): Float32Array {
    for (let i = 0; i < out.length; i++) out[i] = (2 * this.random.next() - 1) * bound;
    return out;
  }
}
