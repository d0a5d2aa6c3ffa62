import { InvalidArgumentError, describeValue } from '@mia/core';

/** The features a blind baseline reads, and how they were made. */
export interface RecordFeatures {
  /** Row-major `[n, numFeatures]`. */
  readonly features: Float32Array;
  readonly numFeatures: number;
  /** How the features were made, for the report (e.g. "per-channel mean and variance … and the label"). */
  readonly description: string;
}

/** Tabular records with more values than this are hashed into this many signed buckets. */
export const HASHED_FEATURES = 128;
/** Labels of at most this many classes are one-hot; more are hashed into {@link HASHED_FEATURES} buckets. */
const MAX_ONE_HOT_CLASSES = 256;
/** Side of the grid of mean intensities an image is reduced to. */
const GRID = 4;
/** An image is summarised on at most this many evenly spaced rows and columns of pixels (a CIFAR image: every fourth). */
const SAMPLED_SIDE = 8;

/** A well-mixed 32-bit hash of an integer (splitmix32 finaliser). */
function mix(x: number): number {
  let z = (x + 0x9e3779b9) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/** Bucket and sign of input feature j (feature hashing, Weinberger et al. 2009). */
const bucketOf = (j: number, buckets: number): [number, number] => {
  const h = mix(j);
  return [h % buckets, h & 0x80000000 ? -1 : 1];
};

function labelColumns(labels: ArrayLike<number>, numClasses: number): { width: number; fill: (row: Float32Array, label: number) => void; text: string } {
  if (numClasses <= MAX_ONE_HOT_CLASSES) return { width: numClasses, fill: (row, label) => void (row[label] = 1), text: 'its label (one-hot)' };
  return {
    width: HASHED_FEATURES,
    fill: (row, label) => {
      const [bucket, sign] = bucketOf(label, HASHED_FEATURES);
      row[bucket] = sign;
    },
    text: `its label (hashed into ${HASHED_FEATURES} buckets)`,
  };
}

/**
 * Features a model-free classifier can read from the records themselves, for the blind baseline of
 * an audit: for images (`inputShape` `[height, width, channels]`) the per-channel mean and variance
 * and a 4×4 grid of mean intensities (a cheap summary of brightness, contrast, colour and layout),
 * read on at most 8×8 evenly spaced pixels;
 * for other records their values, hashed into {@link HASHED_FEATURES} signed buckets when there are
 * more (feature hashing); in both cases followed by the label. `values` may be omitted: the labels alone.
 *
 * @param values - Row-major records `[n, ...inputShape]`, or undefined for labels only.
 * @param inputShape - The shape of one record.
 * @param labels - One integer label in `[0, numClasses)` per record.
 * @param numClasses - C.
 * @returns The features, their count and a description of them.
 * @throws InvalidArgumentError when `values` does not hold `n · prod(inputShape)` numbers or a label is out of range.
 */
export function recordFeatures(values: Float32Array | undefined, inputShape: readonly number[], labels: ArrayLike<number>, numClasses: number): RecordFeatures {
  const fn = 'recordFeatures';
  const n = labels.length;
  const size = inputShape.reduce((a, b) => a * b, 1);
  if (values !== undefined && values.length !== n * size)
    throw new InvalidArgumentError(`${fn}: values must hold ${n} records of ${size} numbers (shape [${inputShape.join(', ')}]), got ${values.length} numbers`);
  const image = inputShape.length === 3;
  const [height, width, channels] = image ? (inputShape as [number, number, number]) : [0, 0, 0];
  const recordWidth = values === undefined ? 0 : image ? 2 * channels + GRID * GRID : size > HASHED_FEATURES ? HASHED_FEATURES : size;
  const label = labelColumns(labels, numClasses);
  const numFeatures = recordWidth + label.width;
  const features = new Float32Array(n * numFeatures);
  for (let i = 0; i < n; i++) {
    const row = features.subarray(i * numFeatures, (i + 1) * numFeatures);
    const y = labels[i]!;
    if (!Number.isInteger(y) || y < 0 || y >= numClasses)
      throw new InvalidArgumentError(`${fn}: labels[${i}] must be an integer in [0, ${numClasses}), got ${describeValue(y)}`);
    label.fill(row.subarray(recordWidth), y);
    if (values === undefined) continue;
    const record = values.subarray(i * size, (i + 1) * size);
    if (image) imageSummary(record, height, width, channels, row);
    else if (size > HASHED_FEATURES) record.forEach((v, j) => ((bucket, sign) => (row[bucket]! += sign * v))(...bucketOf(j, HASHED_FEATURES)));
    else row.set(record);
  }
  const what =
    values === undefined
      ? 'no record content (labels only)'
      : image
        ? `per-channel mean and variance and a ${GRID}×${GRID} grid of mean intensities of each image (on at most ${SAMPLED_SIDE}×${SAMPLED_SIDE} evenly spaced pixels)`
        : size > HASHED_FEATURES
          ? `the records' ${size} values hashed into ${HASHED_FEATURES} signed buckets`
          : `the records' ${size} values`;
  return { features, numFeatures, description: `${what}, and ${label.text}` };
}

/** The sampled pixels of an image of one size (offsets of their first channel) and the grid cell of each, computed once per size (internal). */
let sampleCache: { readonly key: string; readonly at: Uint32Array; readonly cells: Uint8Array; readonly counts: Float64Array } | undefined;
function samplesOf(height: number, width: number, channels: number): { at: Uint32Array; cells: Uint8Array; counts: Float64Array } {
  const key = `${height}:${width}:${channels}`;
  if (sampleCache?.key !== key) {
    const rows = Array.from({ length: Math.min(height, SAMPLED_SIDE) }, (_, k) => Math.floor((k * height) / Math.min(height, SAMPLED_SIDE)));
    const columns = Array.from({ length: Math.min(width, SAMPLED_SIDE) }, (_, k) => Math.floor((k * width) / Math.min(width, SAMPLED_SIDE)));
    const pixels = rows.flatMap((r) => columns.map((c) => [r, c] as const));
    const at = Uint32Array.from(pixels, ([r, c]) => (r * width + c) * channels);
    const cells = Uint8Array.from(pixels, ([r, c]) => Math.floor((r * GRID) / height) * GRID + Math.floor((c * GRID) / width));
    const counts = new Float64Array(GRID * GRID);
    for (const cell of cells) counts[cell]! += 1;
    sampleCache = { key, at, cells, counts };
  }
  return sampleCache;
}

/** Per-channel mean and variance, then the GRID×GRID mean intensities (channels averaged) of one HWC image into `row`, on its sampled pixels. */
function imageSummary(record: Float32Array, height: number, width: number, channels: number, row: Float32Array): void {
  const { at, cells, counts } = samplesOf(height, width, channels);
  const grid = new Float64Array(GRID * GRID);
  const sums = new Float64Array(channels);
  const squares = new Float64Array(channels);
  for (let p = 0; p < at.length; p++) {
    let pixel = 0;
    for (let c = 0; c < channels; c++) {
      const v = record[at[p]! + c]!;
      sums[c]! += v;
      squares[c]! += v * v;
      pixel += v;
    }
    grid[cells[p]!]! += pixel;
  }
  const n = at.length;
  for (let c = 0; c < channels; c++) {
    row[2 * c] = sums[c]! / n;
    row[2 * c + 1] = squares[c]! / n - (sums[c]! / n) ** 2;
  }
  for (let k = 0; k < GRID * GRID; k++) row[2 * channels + k] = counts[k]! > 0 ? grid[k]! / (counts[k]! * channels) : 0;
}
