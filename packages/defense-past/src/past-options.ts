import { option, optionsSchema, type InferOptions } from '@mia/core';

/** The options of a fresh tuning phase (shared by {@link pastTune} and {@link lossGapTune}). */
const tuningFields = {
  epochs: option.integer({ min: 1, default: 20, description: 'Tuning epochs (PAST: 50 on CIFAR-10, 20 elsewhere); the cosine schedule runs over them.' }),
  lr: option.number({ min: 0, default: 0.01, description: 'Initial learning rate of the fresh SGD.' }),
  momentum: option.number({ min: 0, max: 1, default: 0.9, description: 'Momentum of the fresh SGD.' }),
  weightDecay: option.number({ min: 0, default: 5e-4, description: 'Coupled weight decay of the fresh SGD, on every parameter.' }),
  batchSize: option.integer({ min: 1, default: 128, description: 'Member batch size, also the non-member batch size (docs/protocol.md A15).' }),
  seed: option.number({ default: 0, description: 'Seed of member shuffling, non-member batch order and dropout.' }),
  microBatchSize: option.integer({ min: 1, description: 'Gradient accumulation in micro-batches of this size.' }),
};

/**
 * The schema of the tuning phase's own options (validation and defaults of {@link TuningPhaseOptions}).
 * @internal
 */
export const tuningPhaseSchema = optionsSchema(tuningFields);

/**
 * The schema of PAST's options: the tuning phase plus the penalty (λ, α, clamp, norm) and the
 * adaptive switch, with every default of the package in this one place (Purchase/Texas values of
 * docs/protocol.md §2.1: λ = 1e-5, α = 2.5, 20 epochs). Unknown keys are errors.
 * @see docs/protocol.md §4.1, §2.1; PAST Eq. 3–4
 */
export const pastOptionsSchema = optionsSchema({
  ...tuningFields,
  lambda: option.number({ min: 0, default: 1e-5, description: 'λ, the coefficient of the penalty (CIFAR-10 1e-3, CIFAR-100 1e-4, Purchase/Texas 1e-5).' }),
  alpha: option.number({ min: 0, default: 2.5, description: 'α, the focusing power on the privacy sensitivity γ (0 gives plain L1/L2).' }),
  clamp: option.number({ min: 0, exclusiveMin: true, default: 10000, description: 'Upper clamp of γ^α (PASTr reg_clamp).' }),
  norm: option.choice(['l1', 'l2'], { default: 'l1', description: "Penalty gradient: 'l1' adds λ·γ^α·sign(w), 'l2' adds λ·γ^α·2w." }),
  adaptive: option.boolean({ default: true, description: "PAST's adaptive γ; false gives plain L1/L2 tuning with γ ≡ 1." }),
});

/** PAST's options with every default filled in (from {@link resolvePastOptions}). */
export type ResolvedPastOptions = InferOptions<typeof pastOptionsSchema>;

/**
 * Validates PAST's options once and fills in the defaults of {@link pastOptionsSchema}; the other
 * keys of `options` (data, callbacks) are left to their users.
 * @param fn - the calling function, for error messages.
 * @throws InvalidArgumentError naming the bad option, the expected and the actual value.
 */
export function resolvePastOptions(fn: string, options: object): ResolvedPastOptions {
  return pastOptionsSchema.parse(options, fn, { allowUnknown: true });
}
