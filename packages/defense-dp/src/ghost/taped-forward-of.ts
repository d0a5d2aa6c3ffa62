import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError } from '@mia/core';
import type { PerExampleTape } from './per-example-tape';

/** What {@link tapedForwardOf} reads of a tfjs-layers layer (a `tf.layers.Layer` has it). */
export interface LayerLike {
  readonly name: string;
  getClassName(): string;
  readonly trainableWeights: readonly unknown[];
  apply(input: tf.Tensor, kwargs?: Record<string, unknown>): unknown;
}

/** What {@link tapedForwardOf} reads of a `tf.Sequential`. */
export interface SequentialLike {
  getClassName(): string;
  readonly layers: readonly LayerLike[];
}

interface WeightLike {
  read(): tf.Tensor;
}
interface DenseInternals {
  readonly kernel: WeightLike;
  readonly bias: WeightLike | null;
  readonly activation: { apply(x: tf.Tensor): tf.Tensor } | null;
}
interface ConvInternals extends DenseInternals {
  readonly strides: readonly number[];
  readonly padding: string;
  readonly dilationRate: number | readonly number[];
  readonly dataFormat: string;
}

const pair = (v: number | readonly number[]): [number, number] => (typeof v === 'number' ? [v, v] : [v[0]!, v[1] ?? v[0]!]);

/**
 * The forward pass of a `tf.Sequential` through a {@link PerExampleTape}, for
 * `dpSgdTapedGradients(tapedForwardOf(model), batch, { variables: model.trainableWeights.map((w) => w.read()), … })`:
 * `Dense` (on `[n, features]`) and `Conv2D` (channels-last, 'same' or 'valid') layers run through
 * the tape with their own activation; layers without trainable weights (activations, pooling,
 * `Flatten`, `Reshape`, `Dropout`) run as they are in inference mode, so dropout is off (both
 * passes must see the same network); nested `Sequential` models are followed.
 * @throws InvalidArgumentError naming the first layer with weights the tape cannot take (e.g.
 *   `BatchNormalization`, `LayerNormalization`, `Embedding`, `Conv1D`): use `dpSgdGradients` then.
 * @see docs/protocol.md §4.16
 */
export function tapedForwardOf(model: SequentialLike): (x: tf.Tensor, tape: PerExampleTape) => tf.Tensor2D {
  const fn = 'tapedForwardOf';
  if (model?.getClassName?.() !== 'Sequential' || !Array.isArray(model.layers))
    throw new InvalidArgumentError(`${fn}: model must be a tf.Sequential (a chain of layers), got ${model?.getClassName?.() ?? typeof model}`);
  const steps = model.layers.map((layer) => stepOf(fn, layer));
  return (x, tape) => steps.reduce((h, step) => step(h, tape), x) as tf.Tensor2D;
}

type Step = (h: tf.Tensor, tape: PerExampleTape) => tf.Tensor;

function stepOf(fn: string, layer: LayerLike): Step {
  const kind = layer.getClassName();
  if (kind === 'Sequential') {
    const inner = tapedForwardOf(layer as unknown as SequentialLike);
    return (h, tape) => inner(h, tape);
  }
  if (kind === 'Dense') {
    const d = layer as unknown as DenseInternals;
    return (h, tape) => {
      if (h.rank !== 2)
        throw new InvalidArgumentError(`${fn}: Dense layer ${layer.name} must get [n, features] inputs on the taped path, got shape [${h.shape.join(', ')}]`);
      return activate(d, tape.dense(h as tf.Tensor2D, d.kernel.read() as tf.Variable, d.bias?.read() as tf.Variable | undefined));
    };
  }
  if (kind === 'Conv2D') {
    const c = layer as unknown as ConvInternals;
    if (c.dataFormat !== 'channelsLast' || (c.padding !== 'same' && c.padding !== 'valid'))
      throw new InvalidArgumentError(
        `${fn}: Conv2D layer ${layer.name} must be channelsLast with padding 'same' or 'valid', got ${c.dataFormat}, '${c.padding}'`,
      );
    const options = { strides: pair(c.strides), pad: c.padding, dilations: pair(c.dilationRate) } as const;
    return (h, tape) => activate(c, tape.conv2d(h as tf.Tensor4D, c.kernel.read() as tf.Variable, c.bias?.read() as tf.Variable | undefined, options));
  }
  if (layer.trainableWeights.length > 0)
    throw new InvalidArgumentError(
      `${fn}: every layer with trainable weights must be Dense or Conv2D on the taped path, got ${kind} layer ${layer.name}; use dpSgdGradients`,
    );
  if (kind === 'InputLayer') return (h) => h;
  return (h) => layer.apply(h, { training: false }) as tf.Tensor;
}

function activate(layer: DenseInternals, y: tf.Tensor): tf.Tensor {
  return layer.activation === null ? y : layer.activation.apply(y);
}
