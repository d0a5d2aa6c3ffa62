import { optionsSchema } from '@mia/core';
import { conversionFields, DEFAULT_ORDERS, mechanismFields, type RdpConversion } from './accountant-options';
import { minimumEpsilon, type PrivacySpent } from './epsilon-from-rdp';
import { scaledRdp } from './rdp-of';

/** Options of {@link epsilonOf}. */
export interface EpsilonOfOptions {
  /** Poisson sampling rate q ∈ [0, 1]. */
  readonly sampleRate: number;
  /** Noise multiplier σ ≥ 0. */
  readonly noiseMultiplier: number;
  /** Number of steps T ≥ 0. */
  readonly steps: number;
  /** Target δ ∈ (0, 1), usually below 1/N (e.g. 1e-5). */
  readonly delta: number;
  /** RDP orders α > 1 to optimise over. @default {@link DEFAULT_ORDERS} (Opacus' grid) */
  readonly orders?: readonly number[];
  /** RDP → (ε, δ) conversion, see {@link epsilonFromRdp}. @default 'improved' */
  readonly conversion?: RdpConversion;
}

const schema = optionsSchema({ ...mechanismFields, ...conversionFields });

/**
 * The (ε, δ)-DP guarantee of DP-SGD: `steps` Poisson-sampled Gaussian steps at rate q and noise
 * multiplier σ, accounted with Rényi DP ({@link rdpOf}) and converted at the best order
 * ({@link epsilonFromRdp}). Same numbers as Opacus' `RDPAccountant.get_privacy_spent`.
 *
 * @example
 * epsilonOf({ sampleRate: 0.04, noiseMultiplier: 1.5, steps: 2250, delta: 1e-5 }); // { epsilon: 7.3291…, order: 3.9 }
 * @throws InvalidArgumentError naming the argument on bad options.
 * @see Abadi et al. 2016, "Deep Learning with Differential Privacy" (arXiv:1607.00133); Mironov, Talwar and Zhang 2019 (arXiv:1908.10530); docs/protocol.md §4.16
 */
export function epsilonOf(options: EpsilonOfOptions): PrivacySpent {
  const o = schema.parse(options, 'epsilonOf');
  return spentOf(o.sampleRate, o.noiseMultiplier, o.steps, o.delta, o.orders ?? DEFAULT_ORDERS, o.conversion);
}

/** {@link epsilonOf} without validation. @internal */
export function spentOf(q: number, sigma: number, steps: number, delta: number, orders: readonly number[], conversion: RdpConversion): PrivacySpent {
  const rdp = orders.map((alpha) => scaledRdp(q, sigma, steps, alpha));
  return minimumEpsilon(orders, rdp, delta, conversion);
}
