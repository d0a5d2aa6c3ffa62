import type * as tf from '@tensorflow/tfjs-core';
import { checkNumberInRange } from '@mia/core';
import { checkImages, gatherPixels } from './gather-pixels';

/**
 * Rotates every image by `degrees` about its centre (positive = counter-clockwise as displayed,
 * the torchvision convention), bilinear interpolation, `fillValue` outside the source image.
 * 0° is the identity. Returns a new tensor.
 * @see docs/protocol.md §3.3 (rotation augmentation attack)
 */
export function rotateImages(x: tf.Tensor, degrees: number, fillValue = 0): tf.Tensor4D {
  const images = checkImages('rotateImages', x);
  checkNumberInRange('rotateImages', 'degrees', degrees, -360, 360);
  const [b, h, w] = images.shape;
  const theta = (degrees * Math.PI) / 180;
  const cos = Math.cos(theta);
  const sin = Math.sin(theta);
  const cy = (h - 1) / 2;
  const cx = (w - 1) / 2;
  const taps = Array.from({ length: 4 }, () => new Int32Array(b * h * w));
  const weights = Array.from({ length: 4 }, () => new Float32Array(b * h * w));
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      // Inverse map: the output pixel samples the source at the point rotated by −θ (y points down).
      const u = c - cx;
      const v = r - cy;
      const sx = cos * u - sin * v + cx;
      const sy = sin * u + cos * v + cy;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const fx = sx - x0;
      const fy = sy - y0;
      const corners = [
        [y0, x0, (1 - fy) * (1 - fx)],
        [y0, x0 + 1, (1 - fy) * fx],
        [y0 + 1, x0, fy * (1 - fx)],
        [y0 + 1, x0 + 1, fy * fx],
      ] as const;
      for (let n = 0; n < b; n++) {
        const o = (n * h + r) * w + c;
        corners.forEach(([yy, xx, wt], k) => {
          const inside = yy >= 0 && yy < h && xx >= 0 && xx < w;
          taps[k]![o] = inside ? (n * h + yy) * w + xx : -1;
          weights[k]![o] = wt;
        });
      }
    }
  }
  return gatherPixels(images, h, w, taps, weights, fillValue);
}

/** The rotation queries of the CCL/PAST augmentation attack: `[−r, 0, +r]` degrees (CCL r = 4, PAST r = 1). @see docs/protocol.md §3.3 */
export function rotationQueries(r: number): number[] {
  checkNumberInRange('rotationQueries', 'r', r, 0, 180);
  return [-r, 0, r];
}
