import { option, optionsSchema } from '@mia/core';

/**
 * The JSON-describable options of DP-SGD ({@link dpSgdPlugin}; {@link dpSgdGradients} takes
 * `clipNorm` and `noiseMultiplier` with the same meaning).
 * @see Abadi et al. 2016 (arXiv:1607.00133) Algorithm 1; docs/protocol.md §4.16
 */
export const dpSgdOptionsSchema = optionsSchema({
  clipNorm: option.number({
    min: 0,
    exclusiveMin: true,
    required: true,
    description: 'Clipping norm C of each per-example gradient (L2 over all trainable variables).',
  }),
  noiseMultiplier: option.number({
    min: 0,
    required: true,
    description: 'Noise multiplier σ: Gaussian noise N(0, σ²C²) per coordinate of the summed gradient.',
  }),
  sampleRate: option.number({ min: 0, max: 1, exclusiveMin: true, description: 'Poisson sampling rate q (required with sampling poisson).' }),
  sampling: option.choice(['poisson', 'shuffle'], {
    default: 'poisson',
    description: "'poisson' (what the accountant assumes) or 'shuffle' (the loop's fixed-size shuffled batches; not covered by the accountant).",
  }),
});
