import { InvalidArgumentError, option, optionsSchema } from '@mia/core';
import { conversionFields, DEFAULT_ORDERS, mechanismFields, type RdpConversion } from './accountant-options';
import { spentOf } from './epsilon-of';

/** Options of {@link noiseMultiplierFor}. */
export interface NoiseMultiplierForOptions {
  /** The ε to reach (> 0). */
  readonly targetEpsilon: number;
  /** Poisson sampling rate q ∈ [0, 1]. */
  readonly sampleRate: number;
  /** Number of steps T ≥ 0. */
  readonly steps: number;
  /** Target δ ∈ (0, 1). */
  readonly delta: number;
  /** @default {@link DEFAULT_ORDERS} */
  readonly orders?: readonly number[];
  /** @default 'improved' */
  readonly conversion?: RdpConversion;
  /** The search stops once ε is within this distance below the target (Opacus' `epsilon_tolerance`). @default 0.01 */
  readonly epsilonTolerance?: number;
}

/** Opacus' `MAX_SIGMA`: beyond it the budget is called too low. */
const MAX_SIGMA = 1e6;

const schema = optionsSchema({
  targetEpsilon: option.number({ min: 0, exclusiveMin: true, required: true, description: 'The ε to reach.' }),
  sampleRate: mechanismFields.sampleRate,
  steps: mechanismFields.steps,
  ...conversionFields,
  epsilonTolerance: option.number({ min: 0, exclusiveMin: true, default: 0.01, description: 'Accepted distance of ε below the target.' }),
});

/**
 * The noise multiplier σ at which `steps` Poisson-sampled Gaussian steps at rate q reach
 * `targetEpsilon` at `delta` (never above it): Opacus' `get_noise_multiplier` search — double σ from
 * 20 until ε ≤ target, then bisect on [0, σ] until `target − ε ≤ epsilonTolerance`; returns the upper
 * end, so `epsilonOf` at the returned σ is ≤ the target.
 *
 * @example
 * noiseMultiplierFor({ targetEpsilon: 8, sampleRate: 0.04, steps: 2250, delta: 1e-5 }); // 1.416015625
 * @throws InvalidArgumentError on bad options, or when even σ = 10⁶ does not reach the target
 *   (the budget is too low, e.g. q = 0 or steps = 0 with a target below the conversion's floor).
 * @see docs/protocol.md §4.16
 */
export function noiseMultiplierFor(options: NoiseMultiplierForOptions): number {
  const o = schema.parse(options, 'noiseMultiplierFor');
  const orders = o.orders ?? DEFAULT_ORDERS;
  const epsilonAt = (sigma: number) => spentOf(o.sampleRate, sigma, o.steps, o.delta, orders, o.conversion).epsilon;
  let sigmaLow = 0;
  let sigmaHigh = 10;
  let epsHigh = Infinity;
  while (epsHigh > o.targetEpsilon) {
    sigmaHigh *= 2;
    epsHigh = epsilonAt(sigmaHigh);
    if (sigmaHigh > MAX_SIGMA)
      throw new InvalidArgumentError(
        `noiseMultiplierFor: targetEpsilon must be reachable with a noise multiplier ≤ ${MAX_SIGMA} (the privacy budget is too low), got ${o.targetEpsilon} (ε = ${epsHigh} at σ = ${sigmaHigh})`,
      );
  }
  while (o.targetEpsilon - epsHigh > o.epsilonTolerance) {
    const sigma = (sigmaLow + sigmaHigh) / 2;
    const eps = epsilonAt(sigma);
    if (eps < o.targetEpsilon) {
      sigmaHigh = sigma;
      epsHigh = eps;
    } else sigmaLow = sigma;
  }
  return sigmaHigh;
}
