import * as tf from '@tensorflow/tfjs-core';
import { ShapeMismatchError } from '@mia/core';

/**
 * Checks that `x` is a batch of images `[b, h, w, c]`.
 * @internal
 */
export function checkImages(fn: string, x: tf.Tensor): tf.Tensor4D {
  if (x.rank !== 4) throw new ShapeMismatchError(`${fn}: x must be a batch of images [b, h, w, c], got shape [${x.shape.join(', ')}]`);
  return x as tf.Tensor4D;
}

/**
 * Builds output pixels by index: `sources[k][o]` is the flat source pixel `(b·h + y)·w + x` of output
 * pixel o for tap k, or −1 for the fill value; the output is `Σ_k weights[k][o]·source` (one tap with
 * weight 1 = a pure copy). Shape `[b, outH, outW, c]`. Everything inside one `tf.tidy`.
 * @internal
 */
export function gatherPixels(
  x: tf.Tensor4D,
  outH: number,
  outW: number,
  sources: readonly Int32Array[],
  weights: readonly Float32Array[] | undefined,
  fillValue: number,
): tf.Tensor4D {
  const [b, h, w, c] = x.shape;
  const fillIndex = b * h * w;
  return tf.tidy(() => {
    const table = tf.concat([tf.reshape(x, [fillIndex, c]), tf.fill([1, c], fillValue, x.dtype)], 0);
    let out: tf.Tensor | undefined;
    sources.forEach((src, k) => {
      const idx = Int32Array.from(src, (s) => (s < 0 ? fillIndex : s));
      let tap: tf.Tensor = tf.gather(table, tf.tensor1d(idx, 'int32'));
      if (weights !== undefined) tap = tf.mul(tap, tf.tensor2d(weights[k]!, [idx.length, 1]));
      out = out === undefined ? tap : tf.add(out, tap);
    });
    return tf.reshape(out!, [b, outH, outW, c]);
  });
}
