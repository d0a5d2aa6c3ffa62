import type { LabeledData } from '@mia/core';

/** Where the examples of a {@link Dataset} come from: the published data, or a synthetic stand-in. */
export type DatasetSource = 'real' | 'stand-in';

/**
 * A named {@link LabeledData} that says where it comes from, so reports can state when a
 * synthetic stand-in replaced the real data (packages/data/README.md).
 */
export interface Dataset extends LabeledData {
  /** Registry name, e.g. `'cifar10'` or `'purchaseLike'`. */
  readonly name: string;
  /** `'real'` for the published data, `'stand-in'` for a synthetic replacement. */
  readonly source: DatasetSource;
  /** One human-readable sentence: which files, which generator, which size. */
  readonly description: string;
}

/**
 * How `gather` maps stored bytes to floats (docs/protocol.md §1.1, ambiguity A37).
 * - `'unit'`: `x / 255` in `[0, 1]` (CCL, PAST, SELENA).
 * - `{mean, std}`: `(x / 255 − mean_c) / std_c` per channel (RelaxLoss, CRL).
 * - `'raw'`: the byte values 0..255 as floats.
 */
export type Normalization = 'unit' | 'raw' | { readonly mean: readonly number[]; readonly std: readonly number[] };

/** The per-channel CIFAR mean/std that RelaxLoss and CRL normalise with (docs/protocol.md §1.1). */
export const CIFAR_MEAN_STD = Object.freeze({
  mean: Object.freeze([0.4914, 0.4822, 0.4465]),
  std: Object.freeze([0.2023, 0.1994, 0.201]),
});

/** An image dataset stored as `Uint8Array` pixels in NHWC order and converted per batch. */
export interface ImageDataset extends Dataset {
  /** `size·height·width·channels` bytes, NHWC. Shared, never copied by subsets or renormalisation. */
  readonly pixels: Uint8Array;
  readonly height: number;
  readonly width: number;
  readonly channels: number;
  readonly normalization: Normalization;
  /** CIFAR-100 only: the 20 coarse (superclass) labels. */
  readonly coarseLabels?: Int32Array;
  /** The same images and labels with another float mapping (no copy of the pixels). */
  withNormalization(normalization: Normalization): ImageDataset;
}

/** A binary-feature dataset (Purchase100, Texas100 and their stand-ins), one byte per feature. */
export interface TabularDataset extends Dataset {
  /** `size·numFeatures` bytes, each 0 or 1. */
  readonly features: Uint8Array;
  readonly numFeatures: number;
}
