import { InvalidArgumentError, option, optionsSchema } from '@mia/core';
import { conversionFields, DEFAULT_ORDERS, type RdpConversion } from './accountant-options';
import { spentOf } from './epsilon-of';
import { epsilonFloor } from './smallest-certifiable-epsilon';

/** Options of {@link noiseMultiplierFor}. */
export interface NoiseMultiplierForOptions {
  /** The ε to reach: above {@link smallestCertifiableEpsilon} for `delta`, `orders` and `conversion`. */
  readonly targetEpsilon: number;
  /** Poisson sampling rate q ∈ (0, 1]. */
  readonly sampleRate: number;
  /** Number of steps T ≥ 1. */
  readonly steps: number;
  /** Target δ ∈ (0, 1). */
  readonly delta: number;
  /** RDP orders α in (1, 10⁵]. @default {@link DEFAULT_ORDERS} */
  readonly orders?: readonly number[];
  /** @default 'improved' */
  readonly conversion?: RdpConversion;
  /** The search stops once ε is within this distance below the target (Opacus' `epsilon_tolerance`). @default 0.01 */
  readonly epsilonTolerance?: number;
}

/** Opacus' `MAX_SIGMA`: beyond it the budget is called too low. */
const MAX_SIGMA = 1e6;
/** Halvings of the bracket [0, σ]: about 50 reach a double's resolution; the tolerance is met in far fewer. */
const MAX_HALVINGS = 100;
/** A bracket narrower than this (relative to σ) straddles a jump of ε(σ), not a slope. */
const MIN_RELATIVE_WIDTH = 1e-12;

const schema = optionsSchema({
  targetEpsilon: option.number({ min: 0, exclusiveMin: true, required: true, description: 'The ε to reach.' }),
  // q = 0 or no steps spend nothing: ε is 0 for every σ, so there is no noise to choose.
  sampleRate: option.number({ min: 0, max: 1, exclusiveMin: true, required: true, description: 'Poisson sampling rate q of each step.' }),
  steps: option.integer({ min: 1, required: true, description: 'Number of steps T.' }),
  ...conversionFields,
  epsilonTolerance: option.number({ min: 0, exclusiveMin: true, default: 0.01, description: 'Accepted distance of ε below the target.' }),
});

const show = (x: number) => String(Number(x.toPrecision(6)));

/** Why `targetEpsilon` is at or below the floor of `orders`, and what to change. */
function belowFloorError(target: number, delta: number, orders: readonly number[], conversion: RdpConversion): InvalidArgumentError {
  const finite = orders.filter((a) => a !== Infinity);
  const floor = epsilonFloor(delta, orders, conversion);
  if (finite.length === 0)
    return new InvalidArgumentError(`noiseMultiplierFor: orders must include a finite order (at α = ∞ the RDP is ∞ for every σ), got only Infinity`);
  // The next four powers of two above the largest order: 128 … 1024 for Opacus' grid.
  const first = 2 ** Math.ceil(Math.log2(2 * Math.max(...finite)));
  const more = [first, 2 * first, 4 * first, 8 * first];
  const withMore = epsilonFloor(delta, [...orders, ...more], conversion).epsilon;
  return new InvalidArgumentError(
    `noiseMultiplierFor: targetEpsilon must be above ${show(floor.epsilon)}, the smallest ε > 0 that RDP orders up to ${Math.max(...finite)} certify at delta ${delta} (${conversion} conversion, at order ${floor.order}) however much noise is added, got ${target}; raise targetEpsilon or delta, or add larger orders (${more.join(', ')} lower it to ${show(withMore)})`,
  );
}

/** Where the bisection stopped without landing within the tolerance. */
interface Bracket {
  readonly sigmaLow: number;
  readonly sigmaHigh: number;
  readonly epsLow: number;
  readonly epsHigh: number;
  readonly halvings: number;
}

/** Why the bisection cannot land within `epsilonTolerance` below the target: a jump of ε(σ), a target too large, or a tolerance too fine. */
function unresolvedError(o: { targetEpsilon: number; epsilonTolerance: number }, b: Bracket): InvalidArgumentError {
  const { sigmaLow, sigmaHigh, epsLow, epsHigh, halvings } = b;
  if (epsHigh === 0 && epsLow > o.targetEpsilon)
    return new InvalidArgumentError(
      `noiseMultiplierFor: targetEpsilon must be above ${epsLow}, the smallest ε > 0 the orders certify for these steps and q (ε jumps from it at σ = ${show(sigmaLow)} to 0 at σ = ${show(sigmaHigh)}, where the KL bound applies), got ${o.targetEpsilon}; raise targetEpsilon or add larger orders`,
    );
  if (sigmaLow === 0)
    return new InvalidArgumentError(
      `noiseMultiplierFor: targetEpsilon must be at most ${show(epsHigh)}, the ε at σ = ${sigmaHigh} where the search stops (${halvings} halvings), got ${o.targetEpsilon}; so large a target needs no noise (noiseMultiplier 0)`,
    );
  return new InvalidArgumentError(
    `noiseMultiplierFor: epsilonTolerance must be coarser than the search can resolve, got ${o.epsilonTolerance} (after ${halvings} halvings σ ∈ [${sigmaLow}, ${sigmaHigh}] gives ε from ${epsLow} down to ${epsHigh}, target ${o.targetEpsilon})`,
  );
}

/**
 * The noise multiplier σ at which `steps` Poisson-sampled Gaussian steps at rate q reach
 * `targetEpsilon` at `delta` (never above it): Opacus' `get_noise_multiplier` search — double σ from
 * 20 until ε ≤ target, then bisect on [0, σ] until `target − ε ≤ epsilonTolerance`; returns the upper
 * end, so `epsilonOf` at the returned σ is ≤ the target. Both loops are bounded (σ ≤ 10⁶; at most 100
 * halvings, and none below a relative bracket width of 10⁻¹²), and a target the orders cannot certify
 * is refused before any search: below {@link smallestCertifiableEpsilon} the accountant's ε never
 * comes near the target (it stays above that floor until the KL bound sets it to 0 at a σ that
 * drowns every gradient, 28 822 for q = 0.05, T = 60, δ = 10⁻⁵).
 *
 * @example
 * noiseMultiplierFor({ targetEpsilon: 8, sampleRate: 0.04, steps: 2250, delta: 1e-5 }); // 1.416015625
 * @throws InvalidArgumentError on bad options; when `targetEpsilon` is at or below the smallest ε the
 *   orders certify (naming it and what to change); when σ = 10⁶ does not reach the target; or when
 *   no σ lands within `epsilonTolerance` below it (naming the bracket and its ε).
 * @see docs/protocol.md §4.16
 */
export function noiseMultiplierFor(options: NoiseMultiplierForOptions): number {
  const o = schema.parse(options, 'noiseMultiplierFor');
  const orders = o.orders ?? DEFAULT_ORDERS;
  const epsilonAt = (sigma: number) => spentOf(o.sampleRate, sigma, o.steps, o.delta, orders, o.conversion).epsilon;
  if (o.targetEpsilon <= epsilonFloor(o.delta, orders, o.conversion).epsilon) throw belowFloorError(o.targetEpsilon, o.delta, orders, o.conversion);
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
  for (let halvings = 0; o.targetEpsilon - epsHigh > o.epsilonTolerance; halvings++) {
    if (halvings === MAX_HALVINGS || sigmaHigh - sigmaLow <= MIN_RELATIVE_WIDTH * sigmaHigh)
      throw unresolvedError(o, { sigmaLow, sigmaHigh, epsLow: epsilonAt(sigmaLow), epsHigh, halvings });
    const sigma = (sigmaLow + sigmaHigh) / 2;
    const eps = epsilonAt(sigma);
    if (eps < o.targetEpsilon) {
      sigmaHigh = sigma;
      epsHigh = eps;
    } else sigmaLow = sigma;
  }
  return sigmaHigh;
}
