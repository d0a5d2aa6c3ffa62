import * as tf from '@tensorflow/tfjs-core';

/** The sum of clipped per-example gradients, one tensor per variable, and the sum of the losses. @internal */
export interface ClippedGradientSum {
  readonly sums: tf.Tensor[];
  readonly lossSum: tf.Scalar;
}

/**
 * Σᵢ gᵢ·min(1, C/(‖gᵢ‖ + 10⁻⁶)) over `count` examples, where gᵢ is the gradient of `lossOf(i)`
 * with respect to ALL `variables` jointly and ‖·‖ the L2 norm over every coordinate of every
 * variable (the 10⁻⁶ as Opacus' `clip_factor`). The generic path: one backward pass per example,
 * correct for any model, slow for big batches. Variables the loss does not touch get a zero
 * gradient. The clip factor stays on the device (no data sync per example). `clip = false` (only the
 * tests' deliberately broken trainings) sums the gradients unclipped.
 * @internal
 */
export function clippedGradientSum(
  lossOf: (i: number) => tf.Scalar,
  count: number,
  variables: readonly tf.Variable[],
  clipNorm: number,
  clip = true,
): ClippedGradientSum {
  let sums = variables.map((v) => tf.zeros(v.shape, 'float32'));
  let lossSum: tf.Scalar = tf.scalar(0);
  try {
    for (let i = 0; i < count; i++) {
      const next = tf.tidy(() => {
        const { value, grads } = tf.variableGrads(() => lossOf(i), variables as tf.Variable[]);
        const perVariable = variables.map((v) => grads[v.name] ?? undefined);
        const present = perVariable.filter((g): g is tf.Tensor => g !== undefined && g !== null);
        const norm = tf.sqrt(tf.addN(present.map((g) => tf.sum(tf.square(g)))));
        const factor = clip ? tf.minimum(1, tf.div(clipNorm, tf.add(norm, 1e-6))) : tf.onesLike(norm);
        return {
          sums: perVariable.map((g, k) => (g === undefined || g === null ? tf.clone(sums[k]!) : tf.add(sums[k]!, tf.mul(g, factor)))),
          lossSum: tf.add(lossSum, value) as tf.Scalar,
        };
      });
      tf.dispose([...sums, lossSum]);
      sums = next.sums;
      lossSum = next.lossSum;
    }
  } catch (error) {
    tf.dispose([...sums, lossSum]);
    throw error;
  }
  return { sums, lossSum };
}
