import * as tf from '@tensorflow/tfjs-core';
import { ShapeMismatchError, check, type Random } from '@mia/core';

/**
 * Flips `m` distinct features of every row of a binary matrix, chosen uniformly at random from
 * `random` (`x_f ← 1 − x_f`): the noisy copies of the label-only flip-noise attack on
 * Purchase/Texas (docs/protocol.md §3.5). Deterministic for a given stream state. Returns a new tensor.
 * @param x - binary features `[n, F]`.
 * @param m - flips per row, in `[0, F]`.
 */
export function flipFeatures(x: tf.Tensor, m: number, random: Random): tf.Tensor2D {
  if (x.rank !== 2) throw new ShapeMismatchError(`flipFeatures: x must be [n, F], got shape [${x.shape.join(', ')}]`);
  const [n, f] = x.shape as [number, number];
  check(Number.isInteger(m) && m >= 0 && m <= f, 'flipFeatures', 'm', `an integer in [0, ${f}]`, m);
  const mask = new Float32Array(n * f);
  for (let i = 0; i < n; i++) {
    for (const j of random.sample(f, m)) mask[i * f + j] = 1;
  }
  // |x − mask| flips exactly the masked bits of a 0/1 matrix.
  return tf.tidy(() => tf.abs(tf.sub(tf.cast(x, 'float32'), tf.tensor2d(mask, [n, f]))) as tf.Tensor2D);
}
