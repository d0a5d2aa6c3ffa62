import * as tf from '@tensorflow/tfjs-core';
import { checkPositiveInteger, deriveSeed, seededRandom, type Classifier, type LabeledData } from '@mia/core';
import { resolveIndices, transformedLogits } from './transformed-logits';

/** Options of {@link flipNoiseCounts}. */
export interface FlipNoiseOptions {
  /** Flip counts m to try. @default 1..30 (SEL `flip_range = 30`) */
  readonly flips?: readonly number[];
  /** Noisy copies per example and m. @default 100 (SEL `nruns`) */
  readonly repeats?: number;
  /** Seed of the flipped-feature draws. @default 123456789 (SEL) */
  readonly seed?: number;
  /** Examples per forward pass. @default 256 */
  readonly batchSize?: number;
  /** Indices of `data`, in order. @default all */
  readonly indices?: ArrayLike<number>;
  /**
   * The noise transform `(x, m, seed) → x'` (e.g. `@mia/data`'s feature flip). The default flips m
   * distinct uniformly chosen features of every example, `x_f ← 1 − x_f`.
   */
  readonly transform?: (x: tf.Tensor, flips: number, seed: number) => tf.Tensor;
}

/** Flips `m` distinct random features per row of a 2-D binary batch (the default transform). */
function flipFeatures(x: tf.Tensor, m: number, seed: number): tf.Tensor {
  const [b, d] = [x.shape[0]!, x.size / x.shape[0]!];
  const random = seededRandom(seed);
  const mask = new Float32Array(b * d);
  const order = Int32Array.from({ length: d }, (_, i) => i);
  for (let r = 0; r < b; r++) {
    for (let k = 0; k < Math.min(m, d); k++) {
      const j = k + random.int(d - k);
      [order[k], order[j]] = [order[j]!, order[k]!];
      mask[r * d + order[k]!] = 1;
    }
  }
  return tf.tidy(() => {
    const flat = tf.reshape(x, [b, d]);
    const maskT = tf.tensor2d(mask, [b, d]);
    // x' = x + mask·(1 − 2x): flips exactly the masked binary features.
    return tf.reshape(tf.add(flat, tf.mul(maskT, tf.sub(1, tf.mul(2, flat)))), x.shape);
  });
}

/**
 * Label-only feature-flip signals for binary tabular data (SEL `binary_flip_noise_attack.py`):
 * for each flip count m and each of `repeats` noisy copies, flip m features of every example and
 * count how often the prediction still equals the label.
 *
 * @returns `counts[k][i]` ∈ [0, repeats] for `flips[k]`, plus the flips used. Leaves no tensor behind.
 * @see docs/protocol.md §3.5.
 */
export function flipNoiseCounts(classifier: Classifier, data: LabeledData, options: FlipNoiseOptions = {}): { flipCounts: Float64Array[]; flips: number[] } {
  const fn = 'flipNoiseCounts';
  const flips = [...(options.flips ?? Array.from({ length: 30 }, (_, i) => i + 1))];
  flips.forEach((m, k) => checkPositiveInteger(fn, `flips[${k}]`, m));
  const repeats = options.repeats ?? 100;
  checkPositiveInteger(fn, 'repeats', repeats);
  const batchSize = options.batchSize ?? 256;
  checkPositiveInteger(fn, 'batchSize', batchSize);
  const indices = resolveIndices(data, options.indices);
  const transform = options.transform ?? flipFeatures;
  const c = classifier.numClasses;
  const flipCounts = flips.map((m) => {
    const counts = new Float64Array(indices.length);
    for (let r = 0; r < repeats; r++) {
      let batch = 0;
      const logits = transformedLogits(classifier, data, indices, batchSize, (x) => transform(x, m, deriveSeed(options.seed ?? 123456789, m, r, batch++)));
      for (let i = 0; i < indices.length; i++) {
        let best = 0;
        for (let j = 1; j < c; j++) if (logits[i * c + j]! > logits[i * c + best]!) best = j;
        if (best === data.y[indices[i]!]) counts[i]! += 1;
      }
    }
    return counts;
  });
  return { flipCounts, flips };
}
