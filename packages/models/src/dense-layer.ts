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
}

/**
 * A `Linear` layer `x·W + b` with `W` stored as `[in, out]`. Registers a `dense` parameter group.
 * @internal
 */
export function denseLayer(store: ParameterStore, name: string, spec: DenseSpec): Layer {
  const { inFeatures: fin, outFeatures: fout } = spec;
  const weight = store.variable(`${name}.weight`, [fin, fout], store.weightValues([fin, fout], fin, fout, spec.init ?? 'uniform'), true);
  const bias = spec.bias === false ? undefined : store.variable(`${name}.bias`, [fout], store.biasValues(fout, fin, spec.biasInit ?? 'uniform'), true);
  store.group(name, 'dense', weight, bias);
  return (x, ctx) => {
    if (ctx.tape !== undefined) return ctx.tape.dense(x as tf.Tensor2D, weight, bias);
    let y: tf.Tensor2D = tf.matMul(x as tf.Tensor2D, weight as tf.Tensor2D);
    if (bias !== undefined) y = tf.add(y, bias);
    if (ctx.flops !== undefined) ctx.flops.total += 2 * y.size * fin;
    return y;
  };
}
