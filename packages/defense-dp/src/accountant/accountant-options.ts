import { option, type OptionField } from '@mia/core';

/**
 * Opacus' default RDP orders (`RDPAccountant.DEFAULT_ALPHAS`): 1.1, 1.2, …, 10.9, then the integers
 * 12, …, 63.
 */
export const DEFAULT_ORDERS: readonly number[] = Object.freeze([
  ...Array.from({ length: 99 }, (_, x) => 1 + (x + 1) / 10),
  ...Array.from({ length: 52 }, (_, k) => 12 + k),
]);

/** How RDP is converted to (ε, δ)-DP: see {@link epsilonFromRdp}. */
export type RdpConversion = 'improved' | 'classic';

const isInfinity = (v: unknown): v is number => v === Infinity;

/** An RDP order: a number > 1 (integer or fractional), or `Infinity`. @internal */
export const orderField: OptionField<number, false> = {
  ...option.number({ min: 1, exclusiveMin: true }),
  code: { test: isInfinity, description: 'Infinity' },
};

/**
 * The largest finite order whose RDP is computed. A_α's sum has about α terms (α + 1 for an integer
 * α, up to α + 4·10⁵ for a fractional one), so the work grows with the order: 10⁵ takes about a
 * second, while orders of a few thousand already certify ε below 10⁻³ at δ = 10⁻⁵.
 */
export const MAX_RDP_ORDER = 1e5;

/** An order at which the RDP of the sampled Gaussian is computed: in (1, {@link MAX_RDP_ORDER}], or `Infinity`. @internal */
export const rdpOrderField: OptionField<number, false> = {
  ...option.number({ min: 1, exclusiveMin: true, max: MAX_RDP_ORDER }),
  code: { test: isInfinity, description: 'Infinity' },
};

/** The options that describe the mechanism: Poisson rate q, noise multiplier σ, steps T. @internal */
export const mechanismFields = {
  sampleRate: option.number({ min: 0, max: 1, required: true, description: 'Poisson sampling rate q of each step (expected batch size / dataset size).' }),
  noiseMultiplier: option.number({ min: 0, required: true, description: 'Noise multiplier σ: noise std / clipping norm.' }),
  steps: option.integer({ min: 0, required: true, description: 'Number of steps T (each a Poisson-sampled batch).' }),
};

/** δ and the conversion options of the (ε, δ) functions. @internal */
export const conversionFields = {
  delta: option.number({ min: 0, max: 1, exclusiveMin: true, exclusiveMax: true, required: true, description: 'Target δ, in (0, 1).' }),
  orders: option.list(rdpOrderField, { minItems: 1, description: 'RDP orders α in (1, 10⁵] to optimise over (Opacus’ grid by default).' }),
  conversion: option.choice(['improved', 'classic'], {
    default: 'improved',
    description: 'RDP → (ε, δ): improved (Balle et al. 2020; Opacus, dp_accounting) or classic (Mironov 2017).',
  }),
};
