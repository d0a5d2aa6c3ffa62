import { denseBias, type DenseActivation } from '@mia/core';
import * as tf from '@tensorflow/tfjs-core';
import type { Layer } from './layer';
import type { BiasInit, ParameterStore, WeightInit } from './parameter-store';

/** Hyperparameters of a fully connected layer, with PyTorch's `Linear` meaning. @internal */
export interface DenseSpec {
  readonly inFeatures: number;
  readonly outFeatures: number;
  /** @default true */
  readonly bias?: boolean;
  /** @default 'uniform' */
  readonly init?: WeightInit;
  /** @default 'uniform' */
  readonly biasInit?: BiasInit;
  /** Applied after the bias, in the same kernel where the backend fuses dense layers. @default 'linear' */
  readonly activation?: DenseActivation;
}

function activate(y: tf.Tensor2D, activation: DenseActivation): tf.Tensor2D {
  return activation === 'relu' ? tf.relu(y) : activation === 'tanh' ? tf.tanh(y) : y;
}

/**
 * A `Linear` layer `x·W + b` with `W` stored as `[in, out]`, followed by `spec.activation`. Registers a
 * `dense` parameter group. With a bias it runs through `@mia/core`'s `denseBias` (one kernel each way
 * where the backend fuses dense layers, else `matMul`, `add` and the activation as tfjs ops).
 * @internal
 */
export function denseLayer(store: ParameterStore, name: string, spec: DenseSpec): Layer {
  const { inFeatures: fin, outFeatures: fout } = spec;
  const weight = store.variable(`${name}.weight`, [fin, fout], store.weightValues([fin, fout], fin, fout, spec.init ?? 'uniform'), true);
  const bias = spec.bias === false ? undefined : store.variable(`${name}.bias`, [fout], store.biasValues(fout, fin, spec.biasInit ?? 'uniform'), true);
  store.group(name, 'dense', weight, bias);
  const activation = spec.activation ?? 'linear';
  return (x, ctx) => {
    if (ctx.tape !== undefined) return activate(ctx.tape.dense(x as tf.Tensor2D, weight, bias), activation);
    const y = bias !== undefined ? denseBias(x, weight, bias, activation) : activate(tf.matMul(x as tf.Tensor2D, weight as tf.Tensor2D), activation);
    if (ctx.flops !== undefined) ctx.flops.total += 2 * y.size * fin;
    return y;
  };
}
