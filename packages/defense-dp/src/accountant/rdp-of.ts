import { option, optionsSchema } from '@mia/core';
import { mechanismFields, rdpOrderField } from './accountant-options';
import { rdpOfOneStep } from './log-a';

/** Options of {@link rdpOf}. */
export interface RdpOfOptions {
  /** Poisson sampling rate q ∈ [0, 1]: each example joins each step's batch with probability q. */
  readonly sampleRate: number;
  /** Noise multiplier σ ≥ 0: the Gaussian noise's standard deviation divided by the clipping norm (L2 sensitivity). */
  readonly noiseMultiplier: number;
  /** Number of steps T (non-negative integer); RDP composes additively over steps. */
  readonly steps: number;
  /** RDP orders α in (1, 10⁵], integer or fractional (`Infinity` allowed). */
  readonly orders: readonly number[];
}

const schema = optionsSchema({ ...mechanismFields, orders: option.list(rdpOrderField, { minItems: 1, required: true }) });

/**
 * Rényi DP of `steps` compositions of the Poisson-subsampled Gaussian mechanism, at each order:
 * `steps · log(A_α)/(α − 1)`, with `A_α` in log space exactly as TensorFlow Privacy's
 * `rdp_accountant.compute_rdp` and Opacus' `analysis.rdp.compute_rdp` compute it (a finite binomial
 * sum for integer α, two erfc-weighted series for fractional α). Special cases as the reference:
 * q = 0 → 0, σ = 0 → ∞, q = 1 → the Gaussian mechanism's `steps·α/(2σ²)`.
 *
 * @example
 * rdpOf({ sampleRate: 0.01, noiseMultiplier: 2.5, steps: 50, orders: [1.5, 2.5, 5] }); // ≈ [6.5e-4, 1.085e-3, 2.18e-3]
 * @returns the RDP ε(α) of the whole run, one per order (`Infinity` where unbounded).
 * @throws InvalidArgumentError naming the argument when q ∉ [0, 1], σ < 0, steps is not a
 *   non-negative integer, or an order is not in (1, 10⁵] or `Infinity`.
 * @see Mironov, Talwar and Zhang 2019, "Rényi Differential Privacy of the Sampled Gaussian Mechanism" (arXiv:1908.10530) §3.3; docs/protocol.md §4.16
 */
export function rdpOf(options: RdpOfOptions): number[] {
  const o = schema.parse(options, 'rdpOf');
  return o.orders.map((alpha) => scaledRdp(o.sampleRate, o.noiseMultiplier, o.steps, alpha));
}

/** One order without validation; 0 steps give 0 (no mechanism ran), as `0·∞` would be NaN. @internal */
export function scaledRdp(q: number, sigma: number, steps: number, alpha: number): number {
  return steps === 0 ? 0 : steps * rdpOfOneStep(q, sigma, alpha);
}
