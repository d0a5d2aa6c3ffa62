import { InvalidDatasetError } from '@mia/core';

/** Decoded images of one or more CIFAR files: NHWC bytes plus labels. */
export interface DecodedImages {
  /** `labels.length·32·32·3` bytes, NHWC (row-major pixels, RGB interleaved). */
  readonly pixels: Uint8Array;
  /** Fine labels (CIFAR-10: the only labels). */
  readonly labels: Int32Array;
  /** CIFAR-100 only: coarse labels in `[0, 20)`. */
  readonly coarseLabels?: Int32Array;
}

const IMAGE_BYTES = 3072;
const PLANE = 1024;

/** Where to find a file and what to do about it, appended to every format error. */
export function datasetHint(file: string): string {
  return `${file} is truncated, corrupted or not the expected file; download it again, or put the original files in a directory and pass it as dataDir (CLI: --data-dir)`;
}

function decodeRecords(
  bytes: Uint8Array,
  file: string,
  labelBytes: 1 | 2,
  classes: readonly number[],
  expectedCount?: number,
): { pixels: Uint8Array; labels: Int32Array[] } {
  const record = labelBytes + IMAGE_BYTES;
  if (bytes.length === 0 || bytes.length % record !== 0) {
    throw new InvalidDatasetError(`CIFAR reader: ${file} must be a whole number of ${record}-byte records, got ${bytes.length} bytes; ${datasetHint(file)}`);
  }
  const n = bytes.length / record;
  if (expectedCount !== undefined && n !== expectedCount) {
    throw new InvalidDatasetError(`CIFAR reader: ${file} must hold ${expectedCount} images (${expectedCount * record} bytes), got ${n}; ${datasetHint(file)}`);
  }
  const pixels = new Uint8Array(n * IMAGE_BYTES);
  const labels = Array.from({ length: labelBytes }, () => new Int32Array(n));
  for (let i = 0; i < n; i++) {
    const base = i * record;
    for (let l = 0; l < labelBytes; l++) {
      const label = bytes[base + l]!;
      if (label >= classes[l]!) {
        throw new InvalidDatasetError(`CIFAR reader: ${file} record ${i} has label ${label}, expected [0, ${classes[l]! - 1}]; ${datasetHint(file)}`);
      }
      labels[l]![i] = label;
    }
    // The file stores each image channel-major (1024 R, 1024 G, 1024 B); we keep NHWC.
    const src = base + labelBytes;
    const dst = i * IMAGE_BYTES;
    for (let p = 0; p < PLANE; p++) {
      pixels[dst + 3 * p] = bytes[src + p]!;
      pixels[dst + 3 * p + 1] = bytes[src + PLANE + p]!;
      pixels[dst + 3 * p + 2] = bytes[src + 2 * PLANE + p]!;
    }
  }
  return { pixels, labels };
}

/**
 * Parses one CIFAR-10 binary batch (`data_batch_N.bin`, `test_batch.bin`): records of 1 label byte
 * followed by 3072 channel-major pixel bytes.
 * @param bytes - the file contents.
 * @param file - the file name, for error messages.
 * @param expectedCount - images the file must hold (10 000 for the official batches); omit to accept any.
 * @returns NHWC pixels and labels in `[0, 10)`.
 * @throws InvalidDatasetError on a size that is not a whole number of records, a wrong count or a label ≥ 10.
 * @see https://www.cs.toronto.edu/~kriz/cifar.html ("Binary version")
 */
export function parseCifar10Batch(bytes: Uint8Array, file = 'CIFAR-10 batch', expectedCount?: number): DecodedImages {
  const { pixels, labels } = decodeRecords(bytes, file, 1, [10], expectedCount);
  return { pixels, labels: labels[0]! };
}

/**
 * Parses a CIFAR-100 binary file (`train.bin`, `test.bin`): records of a coarse label byte, a fine
 * label byte and 3072 channel-major pixel bytes.
 * @returns NHWC pixels, fine labels in `[0, 100)` and coarse labels in `[0, 20)`.
 * @throws InvalidDatasetError on a bad size or a label out of range.
 */
export function parseCifar100(bytes: Uint8Array, file = 'CIFAR-100 file', expectedCount?: number): DecodedImages {
  const { pixels, labels } = decodeRecords(bytes, file, 2, [20, 100], expectedCount);
  return { pixels, labels: labels[1]!, coarseLabels: labels[0]! };
}

/** Concatenates decoded parts in order (e.g. data_batch_1..5 then test_batch). */
export function concatDecoded(parts: readonly DecodedImages[]): DecodedImages {
  const n = parts.reduce((sum, p) => sum + p.labels.length, 0);
  const pixels = new Uint8Array(n * IMAGE_BYTES);
  const labels = new Int32Array(n);
  const hasCoarse = parts.every((p) => p.coarseLabels !== undefined);
  const coarse = hasCoarse ? new Int32Array(n) : undefined;
  let offset = 0;
  for (const part of parts) {
    pixels.set(part.pixels, offset * IMAGE_BYTES);
    labels.set(part.labels, offset);
    coarse?.set(part.coarseLabels!, offset);
    offset += part.labels.length;
  }
  return coarse === undefined ? { pixels, labels } : { pixels, labels, coarseLabels: coarse };
}
