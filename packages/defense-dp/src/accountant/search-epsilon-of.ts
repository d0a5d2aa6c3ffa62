import { option, optionsSchema } from '@mia/core';
import { conversionFields, DEFAULT_ORDERS, mechanismFields, type RdpConversion } from './accountant-options';
import { minimumEpsilon, type PrivacySpent } from './epsilon-from-rdp';
import { scaledRdp } from './rdp-of';

/** One DP-SGD training of a search: its Poisson rate q, noise multiplier σ and steps T. */
export interface DpTraining {
  /** Poisson sampling rate q ∈ [0, 1] of each step. */
  readonly sampleRate: number;
  /** Noise multiplier σ ≥ 0 (noise std / clipping norm). */
  readonly noiseMultiplier: number;
  /** Number of steps T ≥ 0. */
  readonly steps: number;
}

/** Options of {@link searchEpsilonOf}. */
export interface SearchEpsilonOfOptions {
  /** Every DP-SGD training run on the private data: each candidate of the search, and the released training when it is trained again. */
  readonly trainings: readonly DpTraining[];
  /** Target δ ∈ (0, 1). */
  readonly delta: number;
  /** RDP orders α > 1 to optimise over. @default {@link DEFAULT_ORDERS} (Opacus' grid) */
  readonly orders?: readonly number[];
  /** RDP → (ε, δ) conversion, see {@link epsilonFromRdp}. @default 'improved' */
  readonly conversion?: RdpConversion;
}

const schema = optionsSchema({
  trainings: option.list(option.group(mechanismFields, {}), { minItems: 1, required: true }),
  ...conversionFields,
});

/**
 * The (ε, δ) guarantee of a hyperparameter search over DP-SGD trainings on the same private data,
 * by naive composition: the Rényi DP curves of all trainings are summed (RDP composes additively) and
 * converted at the best order. Releasing the best candidate, chosen by a score computed from the
 * trained models, is post-processing of all of them, so this bounds the search for the records the
 * trainings ran on (the records the score reads, e.g. a validation slice, are not protected by it).
 *
 * It is the bound for what a grid search does: every candidate is trained. Papernot & Steinke's
 * smaller bounds need the number of candidates to be random (e.g. Poisson or truncated negative
 * binomial), each candidate drawn at random from the grid; they do not apply to a fixed grid.
 *
 * @example
 * // 25 candidates at ε = 4 each, and the chosen setting trained again:
 * searchEpsilonOf({ trainings: [...candidates, chosen], delta: 1e-5 }).epsilon;
 * @throws InvalidArgumentError naming the argument (e.g. `trainings[3].noiseMultiplier`) on bad options.
 * @see Papernot & Steinke 2022, "Hyperparameter Tuning with Renyi Differential Privacy" (arXiv:2110.03620) §1–2; Mironov 2017, Prop. 1 (composition); docs/protocol.md §4.16
 */
export function searchEpsilonOf(options: SearchEpsilonOfOptions): PrivacySpent {
  const o = schema.parse(options, 'searchEpsilonOf');
  const orders = o.orders ?? DEFAULT_ORDERS;
  const rdp = orders.map((alpha) => o.trainings.reduce((sum, t) => sum + scaledRdp(t.sampleRate, t.noiseMultiplier, t.steps, alpha), 0));
  return minimumEpsilon(orders, rdp, o.delta, o.conversion);
}
