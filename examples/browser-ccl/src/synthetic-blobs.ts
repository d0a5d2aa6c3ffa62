/** A small labelled dataset as plain arrays (row-major features). */
export interface Blobs {
  /** `size × numFeatures` values, row-major. */
  readonly features: Float32Array;
  /** Class of each row, in `[0, numClasses)`. */
  readonly labels: Int32Array;
  readonly size: number;
  readonly numFeatures: number;
  readonly numClasses: number;
}

/** Options of {@link syntheticBlobs}. */
export interface SyntheticBlobsOptions {
  /** Rows. @default 240 */
  readonly size?: number;
  /** @default 16 */
  readonly numFeatures?: number;
  /** @default 4 */
  readonly numClasses?: number;
  /** Standard deviation of the Gaussian noise around each class centre (centres are ±1 per feature). @default 1.5 */
  readonly noise?: number;
  /** @default 0 */
  readonly seed?: number;
}

/** mulberry32: a tiny seeded uniform generator in [0, 1). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Gaussian blobs: each class has a random centre in {−1, +1}^numFeatures and each row is its
 * class centre plus N(0, noise²) noise (Box–Muller). Noisy enough that a small MLP overfits a
 * small training set, so its members' loss is lower than the non-members' — the leak a loss
 * attack measures. Generated in the page, no download; the same seed gives the same rows.
 *
 * @throws RangeError when a size is not a positive integer or noise is not a finite number ≥ 0.
 */
export function syntheticBlobs(options: SyntheticBlobsOptions = {}): Blobs {
  const { size = 240, numFeatures = 16, numClasses = 4, noise = 1.5, seed = 0 } = options;
  for (const [name, v] of [
    ['size', size],
    ['numFeatures', numFeatures],
    ['numClasses', numClasses],
  ] as const) {
    if (!Number.isInteger(v) || v < 1) throw new RangeError(`syntheticBlobs: ${name} must be a positive integer, got ${v}`);
  }
  if (!Number.isFinite(noise) || noise < 0) throw new RangeError(`syntheticBlobs: noise must be a finite number ≥ 0, got ${noise}`);
  const random = mulberry32(seed);
  const centres = Float32Array.from({ length: numClasses * numFeatures }, () => (random() < 0.5 ? -1 : 1));
  const features = new Float32Array(size * numFeatures);
  const labels = new Int32Array(size);
  for (let i = 0; i < size; i += 1) {
    const c = Math.floor(random() * numClasses);
    labels[i] = c;
    for (let j = 0; j < numFeatures; j += 1) {
      const gaussian = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
      features[i * numFeatures + j] = centres[c * numFeatures + j]! + noise * gaussian;
    }
  }
  return { features, labels, size, numFeatures, numClasses };
}
