import * as tf from '@tensorflow/tfjs-core';
import type { PerExampleTape } from '@mia/core';

/**
 * What a layer sees of the current forward pass.
 * @internal
 */
export interface RunContext {
  /** Training mode: dropout active, batch norm on batch statistics. */
  readonly training: boolean;
  /** Whether training-mode batch norm updates its running statistics. */
  readonly updateStatistics: boolean;
  /** A fresh seed for the next stochastic op (dropout) of this pass. */
  nextSeed(): number;
  /** When present, conv and dense layers add their forward FLOPs (2·MACs) here. */
  readonly flops?: { total: number };
  /** When present, every layer with trainable parameters runs through it (per-example norms for DP-SGD). */
  readonly tape?: PerExampleTape;
}

/**
 * A layer: a function of a tensor and the run context, closing over its variables.
 * @internal
 */
export type Layer = (x: tf.Tensor, ctx: RunContext) => tf.Tensor;

/**
 * Applies layers one after the other. In eval mode each layer runs in its own `tf.tidy` and the
 * previous activation is freed as soon as the next exists, so the peak memory of a forward pass is
 * a few activations instead of all of them (InceptionV4 at batch 32 otherwise exceeds the 4 GB wasm
 * heap). Training keeps everything: the gradient tape needs it.
 * @internal
 */
export function sequential(...layers: Layer[]): Layer {
  return (x, ctx) => {
    if (ctx.training) return layers.reduce((h, layer) => layer(h, ctx), x);
    let h = x;
    for (const layer of layers) {
      const input = h;
      const next = tf.tidy(() => layer(input, ctx));
      if (input !== x && next !== input) input.dispose();
      h = next;
    }
    return h;
  };
}
