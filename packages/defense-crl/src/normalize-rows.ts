import * as tf from '@tensorflow/tfjs-core';
import { ShapeMismatchError, checkNumberInRange } from '@mia/core';

/** The `1e-7` the reference code adds to the norm before scaling (docs/protocol.md §4.3). */
export const NORM_EPSILON = 1e-7;

/**
 * Row-wise soft normalisation of CRL, `v / (1 + t·(‖v‖₂ + 1e-7))`, applied to logits
 * (ImpRelaxLoss), features and class centres (relaxed centre loss). `t = 0` returns `v` unchanged
 * (a copy). Every row of the result has norm < 1/t.
 *
 * @param v - `[n, d]`.
 * @param t - scaling factor τ ≥ 0.
 * @throws InvalidArgumentError on a negative t; ShapeMismatchError when `v` is not 2-D.
 * @see CRL Eq. 5 and Algorithm 1 line 7; docs/protocol.md §6 item 33 (`1 + t‖v‖`, not `t‖v‖`).
 */
export function normalizeRows(v: tf.Tensor, t: number): tf.Tensor2D {
  checkNumberInRange('normalizeRows', 't', t, 0);
  if (v.rank !== 2) throw new ShapeMismatchError(`normalizeRows: v must be [n, d], got shape [${v.shape.join(', ')}]`);
  return tf.tidy(() => {
    if (t === 0) return tf.clone(v) as tf.Tensor2D;
    const norms = tf.sqrt(tf.sum(tf.square(v), 1, true));
    return tf.div(v, tf.add(1, tf.mul(tf.add(norms, NORM_EPSILON), t))) as tf.Tensor2D;
  });
}
