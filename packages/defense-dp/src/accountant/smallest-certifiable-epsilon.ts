import { optionsSchema } from '@mia/core';
import { conversionFields, DEFAULT_ORDERS, type RdpConversion } from './accountant-options';
import type { PrivacySpent } from './epsilon-from-rdp';

/** Options of {@link smallestCertifiableEpsilon}. */
export interface SmallestCertifiableEpsilonOptions {
  /** Target δ ∈ (0, 1). */
  readonly delta: number;
  /** RDP orders α in (1, 10⁵] (`Infinity` allowed, never the best). @default {@link DEFAULT_ORDERS} */
  readonly orders?: readonly number[];
  /** RDP → (ε, δ) conversion, see {@link epsilonFromRdp}. @default 'improved' */
  readonly conversion?: RdpConversion;
}

const schema = optionsSchema(conversionFields);

/**
 * The smallest ε > 0 the accountant can report at these orders, however much noise is added: the
 * conversion's value at zero RDP, minimised over the orders (Balle et al.'s
 * `−(log δ + log α)/(α − 1) + log((α − 1)/α)`, or Mironov's `−log δ/(α − 1)` for `'classic'`).
 * {@link epsilonOf} stays above it for every σ (≈ 0.103 at δ = 10⁻⁵ on Opacus' grid, whose largest
 * order, 63, attains it) until σ is so large that the KL bound applies (RDP below −log(1 − δ²)) and
 * it reports 0. A target in between cannot be reached: raise it, raise δ, or add larger orders
 * (128, 256, 512 and 1024 lower it to ≈ 0.0035 at δ = 10⁻⁵). 0 when δ is so large that the
 * conversion reaches 0 itself.
 *
 * @example
 * smallestCertifiableEpsilon({ delta: 1e-5 }); // { epsilon: 0.102867251…, order: 63 }
 * @returns the floor and the order that attains it (`epsilon: Infinity`, `order: NaN` when every order is `Infinity`).
 * @throws InvalidArgumentError naming the argument on bad options.
 * @see Balle et al. 2020 (arXiv:1905.09982) Thm. 21; Mironov 2017 Prop. 3; docs/protocol.md §4.16
 */
export function smallestCertifiableEpsilon(options: SmallestCertifiableEpsilonOptions): PrivacySpent {
  const o = schema.parse(options, 'smallestCertifiableEpsilon');
  return epsilonFloor(o.delta, o.orders ?? DEFAULT_ORDERS, o.conversion);
}

/** {@link smallestCertifiableEpsilon} without validation. @internal */
export function epsilonFloor(delta: number, orders: readonly number[], conversion: RdpConversion): PrivacySpent {
  const logDelta = Math.log(delta);
  let best = { epsilon: Infinity, order: NaN };
  for (const a of orders) {
    // At α = ∞ the sampled Gaussian's RDP is ∞ for every σ: that order never certifies anything.
    if (a === Infinity) continue;
    const eps = conversion === 'classic' ? -logDelta / (a - 1) : -(logDelta + Math.log(a)) / (a - 1) + Math.log((a - 1) / a);
    if (eps < best.epsilon) best = { epsilon: eps, order: a };
  }
  return { epsilon: Math.max(0, best.epsilon), order: best.order };
}
