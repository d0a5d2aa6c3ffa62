import { option, optionsSchema } from '@mia/core';

/**
 * The schema of the scalar {@link MixupMmdOptions} (validation, defaults, JSON Schema; unknown keys
 * are errors); the optimizer and schedule are code-only options of {@link trainMixupMmd}.
 * @see docs/protocol.md §4.6, A35
 */
export const mixupMmdOptionsSchema = optionsSchema({
  epochs: option.integer({ min: 1, required: true, description: 'Training epochs.' }),
  batchSize: option.integer({ min: 1, default: 128, description: 'Batch size of the mixup pass.' }),
  lambdaMmd: option.number({ min: 0, default: 3, description: 'λ_mmd (MLHospital code).' }),
  mixupAlpha: option.number({ min: 0, exclusiveMin: true, default: 1, description: 'Mixup Beta(α, α) parameter.' }),
  sigma: option.number({ min: 0, exclusiveMin: true, default: 1, description: 'RBF bandwidth σ of the MMD.' }),
  gapThreshold: option.number({ min: 0, max: 1, default: 0.03, description: 'Skip the MMD pass when |train acc − validation acc| is below this fraction.' }),
  seed: option.number({ default: 0, description: 'Seed of batches and mixup.' }),
});
