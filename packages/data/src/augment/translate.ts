import type * as tf from '@tensorflow/tfjs-core';
import { checkNonNegativeInteger, InvalidArgumentError } from '@mia/core';
import { checkImages, gatherPixels } from './gather-pixels';

/**
 * Shifts every image by `dy` rows down and `dx` columns right (negative = up/left), filling the
 * uncovered border with `fillValue` (an affine translation, no rotation or scale). `(0, 0)` is the
 * identity. Returns a new tensor.
 * @see docs/protocol.md §3.3 (translation augmentation attack)
 */
export function translateImages(x: tf.Tensor, dy: number, dx: number, fillValue = 0): tf.Tensor4D {
  const images = checkImages('translateImages', x);
  if (!Number.isInteger(dy) || !Number.isInteger(dx)) {
    throw new InvalidArgumentError(`translateImages: dy and dx must be integers, got ${dy}, ${dx}`);
  }
  const [b, h, w] = images.shape;
  const src = new Int32Array(b * h * w);
  for (let n = 0; n < b; n++) {
    for (let r = 0; r < h; r++) {
      for (let c = 0; c < w; c++) {
        const y = r - dy;
        const xx = c - dx;
        src[(n * h + r) * w + c] = y >= 0 && y < h && xx >= 0 && xx < w ? (n * h + y) * w + xx : -1;
      }
    }
  }
  return gatherPixels(images, h, w, [src], undefined, fillValue);
}

/**
 * The translation queries of the CCL/PAST augmentation attack: every integer shift `(dy, dx)` with
 * `|dy| + |dx| = d`, in increasing (dy, dx) order, then the identity `(0, 0)`. `d = 1` gives
 * (−1,0), (0,−1), (0,1), (1,0), (0,0).
 * @see docs/protocol.md §3.3
 */
export function translationQueries(d = 1): Array<readonly [number, number]> {
  checkNonNegativeInteger('translationQueries', 'd', d);
  const out: Array<readonly [number, number]> = [];
  if (d > 0) {
    for (let dy = -d; dy <= d; dy++) {
      for (let dx = -d; dx <= d; dx++) if (Math.abs(dy) + Math.abs(dx) === d) out.push([dy, dx]);
    }
  }
  out.push([0, 0]);
  return out;
}
