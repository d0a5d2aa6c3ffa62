import * as tf from '@tensorflow/tfjs-core';
import { deriveSeed } from '@mia/core';
import { gaussianNoise } from './gaussian-noise';

/**
 * `(sum + N(0, σ²C²)) / expectedBatchSize` per coordinate of each clipped sum, keyed by variable
 * name. With σ = 0 no noise tensor is drawn (the exact clipped mean). Noise of variable k is seeded
 * by `deriveSeed(seed, 'dp-sgd-noise', k)` and drawn in JavaScript ({@link gaussianNoise}): the same
 * seed gives the same noise on every backend. `noiseStd` replaces σC (only the tests' deliberately
 * broken trainings).
 * @internal
 */
export function privatize(
  sums: readonly tf.Tensor[],
  variables: readonly tf.Variable[],
  options: {
    readonly clipNorm: number;
    readonly noiseMultiplier: number;
    readonly expectedBatchSize: number;
    readonly seed: number;
    readonly noiseStd?: number;
  },
): Record<string, tf.Tensor> {
  const std = options.noiseStd ?? options.noiseMultiplier * options.clipNorm;
  const grads: Record<string, tf.Tensor> = {};
  tf.tidy(() => {
    variables.forEach((v, k) => {
      const sum = sums[k]!;
      const noisy = std === 0 ? sum : tf.add(sum, tf.tensor(gaussianNoise(sum.size, std, deriveSeed(options.seed, 'dp-sgd-noise', k)), sum.shape));
      grads[v.name] = tf.keep(tf.div(noisy, options.expectedBatchSize));
    });
  });
  return grads;
}
