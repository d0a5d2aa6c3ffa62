import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError } from '@mia/core';
import type { ClippedGradientSum } from '../dp-sgd/clipped-gradient-sum';
import { layerClipping } from './layer-clipping';
import { recordingTape, type PerExampleTape, type TapeEntry } from './per-example-tape';

/**
 * Σᵢ gᵢ·min(1, C/(‖gᵢ‖ + 10⁻⁶)) in one backward pass instead of one per example: the pass (towards
 * the input, so no weight gradient is formed) records every tape layer's input and output gradient;
 * from those the per-example norms follow layer by layer, and, once the clip factors cᵢ are known,
 * each variable's clipped sum, which is the layer's weight gradient with the output gradient scaled
 * by cᵢ per example ({@link layerClipping}). `clip = false` (only the tests' deliberately broken
 * trainings) sums the gradients unclipped.
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
  clip = true,
): ClippedGradientSum {
  if (x.shape[0] === 0) return { sums: variables.map((v) => tf.zeros(v.shape)), lossSum: tf.scalar(0) };
  const input = x.dtype === 'float32' ? x : tf.cast(x, 'float32');
  const { tape, entries } = recordingTape(input);
  try {
    return tf.tidy(() => {
      const { value: lossSum } = tf.valueAndGrad((xIn: tf.Tensor) => tf.sum(losses(xIn, tape)) as tf.Scalar)(input);
      const trained = checkCoverage(fn, entries, variables);
      const layers = trained.map((e) => layerClipping(e));
      const sq = layers.length === 1 ? layers[0]!.squared : tf.addN(layers.map((l) => l.squared));
      const factors = (clip ? tf.minimum(1, tf.div(clipNorm, tf.add(tf.sqrt(sq), 1e-6))) : tf.onesLike(sq)) as tf.Tensor1D;
      const byVariable = new Map<tf.Variable, tf.Tensor>();
      trained.forEach((e, i) => {
        const [weight, bias] = layers[i]!.clippedSums(factors);
        byVariable.set(e.weight, weight!);
        if (e.bias !== undefined) byVariable.set(e.bias, bias!);
      });
      return { sums: variables.map((v) => byVariable.get(v)!), lossSum };
    });
  } finally {
    if (input !== x) input.dispose();
    for (const e of entries) tf.dispose([e.input, ...(e.outputGradient === undefined ? [] : [e.outputGradient])]);
  }
}

/** The entries of trained variables, after checking that each trained variable is used once. */
function checkCoverage(fn: string, entries: readonly TapeEntry[], variables: readonly tf.Variable[]): TapeEntry[] {
  const isTrained = new Set(variables);
  // A layer whose variables are all frozen takes no part in the norms (its gradient is not applied).
  const trained = entries.filter((e) => isTrained.has(e.weight) || (e.bias !== undefined && isTrained.has(e.bias)));
  const uses = new Map<tf.Variable, number>();
  for (const e of trained) for (const v of [e.weight, e.bias]) if (v !== undefined) uses.set(v, (uses.get(v) ?? 0) + 1);
  const missing = variables.filter((v) => !uses.has(v)).map((v) => v.name);
  const twice = [...uses].filter(([, n]) => n > 1).map(([v]) => v.name);
  const unrecorded = trained.filter((e) => e.outputGradient === undefined).map((e) => e.weight.name);
  const mixed = [...uses.keys()].filter((v) => !isTrained.has(v)).map((v) => v.name);
  if (missing.length > 0)
    throw new InvalidArgumentError(
      `${fn}: every trainable variable must be used through the tape (tape.dense / tape.conv2d / tape.affine), got variables outside it: ${missing.join(', ')}`,
    );
  if (twice.length > 0)
    throw new InvalidArgumentError(`${fn}: each tape variable must be used once per forward pass, got variables used more than once: ${twice.join(', ')}`);
  if (unrecorded.length > 0)
    throw new InvalidArgumentError(`${fn}: every tape layer must lead to the loss, got layers without a gradient: ${unrecorded.join(', ')}`);
  if (mixed.length > 0)
    throw new InvalidArgumentError(`${fn}: a tape layer must have all or none of its variables trained, got frozen ${mixed.join(', ')} beside a trained one`);
  return trained;
}
