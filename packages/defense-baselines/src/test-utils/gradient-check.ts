import * as tf from '@tensorflow/tfjs-core';

/**
 * Central finite differences of a scalar function of one `[n, C]` input, in float32 (eps = 1e-2 keeps
 * the rounding error well below the tolerance used in the tests), compared with `tf.grad`.
 * Returns the max absolute difference between the analytic and the numeric gradient.
 */
export function maxGradientError(f: (x: tf.Tensor2D) => tf.Scalar, x: number[][], eps = 1e-2): number {
  return tf.tidy(() => {
    const input = tf.tensor2d(x);
    const analytic = tf
      .grad((v: tf.Tensor) => f(v as tf.Tensor2D))(input)
      .arraySync() as number[][];
    let worst = 0;
    for (let i = 0; i < x.length; i++) {
      for (let j = 0; j < x[i]!.length; j++) {
        const plus = x.map((row) => [...row]);
        const minus = x.map((row) => [...row]);
        plus[i]![j]! += eps;
        minus[i]![j]! -= eps;
        const numeric = (f(tf.tensor2d(plus)).arraySync() - f(tf.tensor2d(minus)).arraySync()) / (2 * eps);
        worst = Math.max(worst, Math.abs(numeric - analytic[i]![j]!));
      }
    }
    return worst;
  });
}

/** Hand-built logits used by the known-answer tests: `p = [.5, .25, .25]` and `[.25, .5, .25]`, labels `[0, 0]`. */
export const HAND_LOGITS = [
  [Math.LN2, 0, 0],
  [0, Math.LN2, 0],
];
export const HAND_LABELS = [0, 0];
