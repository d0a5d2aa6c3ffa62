import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError } from '@mia/core';
import type { ClippedGradientSum } from '../dp-sgd/clipped-gradient-sum';
import { squaredNormsOf } from './per-example-norms';
import { passThroughTape, recordingTape, type PerExampleTape, type TapeEntry } from './per-example-tape';

/**
 * Σᵢ gᵢ·min(1, C/(‖gᵢ‖ + 10⁻⁶)) with two backward passes instead of one per example: the first
 * (towards the input) records every tape layer's output gradient, from which the per-example norms
 * follow layer by layer ({@link squaredNormsOf}); the second differentiates Σᵢ cᵢ·lossᵢ with the
 * clip factors cᵢ as constants, which is the clipped sum.
 * @param losses - per-example losses `[n]` of the batch, computed through `tape`.
 * @throws InvalidArgumentError when a variable is not used through the tape, or used twice.
 * @internal
 */
export function tapedClippedSum(
  fn: string,
  losses: (x: tf.Tensor, tape: PerExampleTape) => tf.Tensor1D,
  x: tf.Tensor,
  variables: readonly tf.Variable[],
  clipNorm: number,
): ClippedGradientSum {
  if (x.shape[0] === 0) return { sums: variables.map((v) => tf.zeros(v.shape)), lossSum: tf.scalar(0) };
  const { tape, entries } = recordingTape();
  try {
    return tf.tidy(() => {
      const input = x.dtype === 'float32' ? x : tf.cast(x, 'float32');
      // Pass 1: the gradient towards the input runs through every tape layer (and skips the weight gradients).
      const { value: lossSum } = tf.valueAndGrad((xIn: tf.Tensor) => tf.sum(losses(xIn, tape)) as tf.Scalar)(input);
      checkCoverage(fn, entries, variables);
      const sq = tf.addN(entries.map(squaredNormsOf));
      const factors = tf.minimum(1, tf.div(clipNorm, tf.add(tf.sqrt(sq), 1e-6)));
      // Pass 2: the clipped sum is the gradient of the clip-weighted loss sum.
      const { grads } = tf.variableGrads(() => tf.sum(tf.mul(losses(input, passThroughTape), factors)), variables as tf.Variable[]);
      return { sums: variables.map((v) => grads[v.name] ?? tf.zeros(v.shape)), lossSum };
    });
  } finally {
    for (const e of entries) tf.dispose([e.input, ...(e.outputGradient === undefined ? [] : [e.outputGradient])]);
  }
}

function checkCoverage(fn: string, entries: readonly TapeEntry[], variables: readonly tf.Variable[]): void {
  const uses = new Map<tf.Variable, number>();
  for (const e of entries) for (const v of [e.weight, e.bias]) if (v !== undefined) uses.set(v, (uses.get(v) ?? 0) + 1);
  const missing = variables.filter((v) => !uses.has(v)).map((v) => v.name);
  const twice = [...uses].filter(([, n]) => n > 1).map(([v]) => v.name);
  const unrecorded = entries.filter((e) => e.outputGradient === undefined).map((e) => e.weight.name);
  if (missing.length > 0)
    throw new InvalidArgumentError(
      `${fn}: every trainable variable must be used through the tape (tape.dense / tape.conv2d), got variables outside it: ${missing.join(', ')}`,
    );
  if (twice.length > 0)
    throw new InvalidArgumentError(`${fn}: each tape variable must be used once per forward pass, got variables used more than once: ${twice.join(', ')}`);
  if (unrecorded.length > 0)
    throw new InvalidArgumentError(`${fn}: every tape layer must lead to the loss, got layers without a gradient: ${unrecorded.join(', ')}`);
}
