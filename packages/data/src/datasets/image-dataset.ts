import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, InvalidDatasetError, checkPositiveInteger } from '@mia/core';
import type { DatasetSource, ImageDataset, Normalization } from './dataset';
import { checkIndices, checkStoredLabels } from './check-stored';

/** Input of {@link imageDataset}. */
export interface ImageDatasetInit {
  readonly name: string;
  readonly source: DatasetSource;
  readonly description: string;
  /** NHWC bytes, `labels.length·height·width·channels` long. */
  readonly pixels: Uint8Array;
  readonly labels: Int32Array;
  readonly numClasses: number;
  /** @default 32 */
  readonly height?: number;
  /** @default 32 */
  readonly width?: number;
  /** @default 3 */
  readonly channels?: number;
  /** @default 'unit' */
  readonly normalization?: Normalization;
  readonly coarseLabels?: Int32Array;
}

/** Per-channel `scale` and `offset` so that `float = byte·scale[c] + offset[c]`. */
function affineOf(normalization: Normalization, channels: number): { scale: Float32Array; offset: Float32Array } {
  const scale = new Float32Array(channels);
  const offset = new Float32Array(channels);
  for (let c = 0; c < channels; c++) {
    if (normalization === 'raw') scale[c] = 1;
    else if (normalization === 'unit') scale[c] = 1 / 255;
    else {
      const { mean, std } = normalization;
      if (mean.length !== channels || std.length !== channels || std.some((s) => !(s > 0))) {
        throw new InvalidArgumentError(
          `imageDataset: normalization must have ${channels} means and ${channels} positive stds, got ${JSON.stringify(normalization)}`,
        );
      }
      scale[c] = 1 / (255 * std[c]!);
      offset[c] = -mean[c]! / std[c]!;
    }
  }
  return { scale, offset };
}

/**
 * Wraps NHWC `Uint8Array` images as an {@link ImageDataset}: `gather(indices)` returns a float32
 * tensor `[k, height, width, channels]` normalised on the fly (docs/protocol.md §1.1, A37).
 * @throws InvalidDatasetError when the pixel count does not match the labels or a label is out of range.
 */
export function imageDataset(init: ImageDatasetInit): ImageDataset {
  const { pixels, labels, numClasses, name } = init;
  const height = init.height ?? 32;
  const width = init.width ?? 32;
  const channels = init.channels ?? 3;
  for (const [key, value] of [
    ['height', height],
    ['width', width],
    ['channels', channels],
  ] as const) {
    checkPositiveInteger('imageDataset', key, value);
  }
  const perImage = height * width * channels;
  if (pixels.length !== labels.length * perImage) {
    throw new InvalidDatasetError(
      `imageDataset(${name}): pixels must hold ${labels.length} images of ${perImage} bytes (${labels.length * perImage}), got ${pixels.length} bytes`,
    );
  }
  checkStoredLabels(`imageDataset(${name})`, labels, numClasses);
  const normalization = init.normalization ?? 'unit';
  const { scale, offset } = affineOf(normalization, channels);
  return {
    name,
    source: init.source,
    description: init.description,
    size: labels.length,
    numClasses,
    inputShape: [height, width, channels],
    y: labels,
    pixels,
    height,
    width,
    channels,
    normalization,
    ...(init.coarseLabels === undefined ? {} : { coarseLabels: init.coarseLabels }),
    gather(indices) {
      checkIndices(`${name}.gather`, indices, labels.length);
      const out = new Float32Array(indices.length * perImage);
      for (let i = 0; i < indices.length; i++) {
        const src = indices[i]! * perImage;
        const dst = i * perImage;
        for (let p = 0; p < perImage; p++) {
          const c = p % channels;
          out[dst + p] = pixels[src + p]! * scale[c]! + offset[c]!;
        }
      }
      return tf.tensor4d(out, [indices.length, height, width, channels], 'float32');
    },
    withNormalization(next) {
      return imageDataset({ ...init, normalization: next });
    },
  };
}
