import type * as tf from '@tensorflow/tfjs-core';
import { checkNonNegativeInteger, checkNumberInRange, type Random } from '@mia/core';
import { checkImages, gatherPixels } from './gather-pixels';

/** One crop×flip view: crop offset `(dy, dx)` in the zero-padded image, then an optional horizontal flip. */
export interface CropFlip {
  readonly dy: number;
  readonly dx: number;
  readonly flip: boolean;
}

function cropFlipSources(shape: readonly number[], views: readonly CropFlip[], padding: number): Int32Array {
  const [b, h, w] = shape as [number, number, number];
  const src = new Int32Array(b * h * w);
  for (let n = 0; n < b; n++) {
    const { dy, dx, flip } = views[views.length === 1 ? 0 : n]!;
    for (let r = 0; r < h; r++) {
      for (let col = 0; col < w; col++) {
        // padded[y][x] = image[y − p][x − p]; crop at (dy, dx); flip mirrors the crop.
        const y = r + dy - padding;
        const xx = (flip ? w - 1 - col : col) + dx - padding;
        src[(n * h + r) * w + col] = y >= 0 && y < h && xx >= 0 && xx < w ? (n * h + y) * w + xx : -1;
      }
    }
  }
  return src;
}

/**
 * Applies one crop×flip view to every image of a batch: pad by `padding` with `fillValue`, crop the
 * `h×w` window at offset `(dy, dx) ∈ [0, 2·padding]²`, flip horizontally if `flip`. Offset
 * `(padding, padding)` without flip is the identity. Returns a new tensor.
 * @param fillValue - the padding value in the tensor's (normalised) units. @default 0
 * @see docs/protocol.md §3.4 (SELENA `Aug_Attack.py`)
 */
export function applyCropFlip(x: tf.Tensor, view: CropFlip, padding = 4, fillValue = 0): tf.Tensor4D {
  const images = checkImages('applyCropFlip', x);
  checkNonNegativeInteger('applyCropFlip', 'padding', padding);
  checkNumberInRange('applyCropFlip', 'view.dy', view.dy, 0, 2 * padding);
  checkNumberInRange('applyCropFlip', 'view.dx', view.dx, 0, 2 * padding);
  const [, h, w] = images.shape;
  return gatherPixels(images, h, w, [cropFlipSources(images.shape, [view], padding)], undefined, fillValue);
}

/**
 * The 162 deterministic label-only queries of the SELENA augmentation attack (docs/protocol.md §3.4):
 * every offset `(dy, dx) ∈ {0..2p}²` (81 for p = 4), unflipped then flipped.
 */
export function cropFlipQueries(padding = 4): CropFlip[] {
  checkNonNegativeInteger('cropFlipQueries', 'padding', padding);
  const out: CropFlip[] = [];
  for (const flip of [false, true]) {
    for (let dy = 0; dy <= 2 * padding; dy++) for (let dx = 0; dx <= 2 * padding; dx++) out.push({ dy, dx, flip });
  }
  return out;
}

/** Options of {@link randomCropFlip}. */
export interface RandomCropFlipOptions {
  /** @default 4 */
  readonly padding?: number;
  /** Flip each image horizontally with probability 1/2. @default true */
  readonly flip?: boolean;
  /** Padding value in the tensor's units (0 = black for `'unit'` normalisation). @default 0 */
  readonly fillValue?: number;
}

/**
 * Training augmentation (docs/protocol.md §1.1): per image a random crop from the zero-padded image and
 * a random horizontal flip, drawn from `random` (seeded, so batches are reproducible). Usable as the
 * `augment` option of `train`. Returns a new tensor; `x` is not disposed.
 */
export function randomCropFlip(x: tf.Tensor, random: Random, options: RandomCropFlipOptions = {}): tf.Tensor4D {
  const images = checkImages('randomCropFlip', x);
  const padding = options.padding ?? 4;
  checkNonNegativeInteger('randomCropFlip', 'padding', padding);
  const views: CropFlip[] = [];
  for (let n = 0; n < images.shape[0]; n++) {
    views.push({ dy: random.int(2 * padding + 1), dx: random.int(2 * padding + 1), flip: (options.flip ?? true) && random.next() < 0.5 });
  }
  const [, h, w] = images.shape;
  return gatherPixels(images, h, w, [cropFlipSources(images.shape, views, padding)], undefined, options.fillValue ?? 0);
}

/** Mirrors every image left–right (a crop×flip view with offset (padding, padding)). */
export function horizontalFlip(x: tf.Tensor): tf.Tensor4D {
  return applyCropFlip(x, { dy: 0, dx: 0, flip: true }, 0);
}
