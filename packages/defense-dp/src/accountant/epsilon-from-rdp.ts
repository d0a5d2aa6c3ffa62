import { check, option, optionsSchema } from '@mia/core';
import { conversionFields, orderField, type RdpConversion } from './accountant-options';

/** Options of {@link epsilonFromRdp}. */
export interface EpsilonFromRdpOptions {
  /** RDP orders α > 1 (`Infinity` allowed). */
  readonly orders: readonly number[];
  /** RDP ε(α) ≥ 0 at each order (`Infinity` allowed), e.g. the sum of several {@link rdpOf} results. */
  readonly rdp: readonly number[];
  /** Target δ ∈ (0, 1). */
  readonly delta: number;
  /** @default 'improved' */
  readonly conversion?: RdpConversion;
}

/** The (ε, δ) guarantee and the RDP order that achieved it. */
export interface PrivacySpent {
  /** ε ≥ 0; `Infinity` when no order gives a finite bound (no noise). */
  readonly epsilon: number;
  /** The order α where the minimum was attained (`NaN` when ε is `Infinity` at every order). */
  readonly order: number;
}

const isInfinity = (v: unknown): v is number => v === Infinity;
const schema = optionsSchema({
  orders: option.list(orderField, { minItems: 1, required: true }),
  rdp: option.list({ ...option.number({ min: 0 }), code: { test: isInfinity, description: 'Infinity' } }, { minItems: 1, required: true }),
  delta: conversionFields.delta,
  conversion: conversionFields.conversion,
});

/**
 * Converts Rényi DP at several orders to (ε, δ)-DP and returns the smallest ε over the orders.
 *
 * - `'improved'` (default; what current Opacus `get_privacy_spent` and Google's dp_accounting use):
 *   ε(α) = rdp(α) − (log δ + log α)/(α − 1) + log((α − 1)/α) (Balle et al. 2020, "Hypothesis Testing
 *   Interpretations and Rényi Differential Privacy", arXiv:1905.09982, Thm. 21; Canonne, Kamath and
 *   Steinke 2020, arXiv:2004.00010, Prop. 12).
 * - `'classic'`: ε(α) = rdp(α) − log δ/(α − 1) (Mironov 2017, "Rényi Differential Privacy", Prop. 3).
 *
 * Orders where ε(α) is undefined (∞ − ∞ at α = ∞) are skipped, as NumPy's `nanargmin` does in the
 * reference. Two details follow Google's dp_accounting (`rdp_privacy_accountant._compute_epsilon`), where
 * Opacus differs only for negligible RDP or δ near 1: an order whose RDP is below −log(1 − δ²)
 * gives ε = 0 (the KL bound), and a negative minimum is reported as 0.
 * @throws InvalidArgumentError on bad options or when `orders` and `rdp` differ in length.
 * @see docs/protocol.md §4.16
 */
export function epsilonFromRdp(options: EpsilonFromRdpOptions): PrivacySpent {
  const o = schema.parse(options, 'epsilonFromRdp');
  check(o.rdp.length === o.orders.length, 'epsilonFromRdp', 'rdp', `a list as long as orders (${o.orders.length})`, o.rdp);
  return minimumEpsilon(o.orders, o.rdp, o.delta, o.conversion);
}

/** The conversion without validation. @internal */
export function minimumEpsilon(orders: readonly number[], rdp: readonly number[], delta: number, conversion: RdpConversion): PrivacySpent {
  let best = { epsilon: Infinity, order: NaN };
  const logDelta = Math.log(delta);
  for (let i = 0; i < orders.length; i++) {
    const a = orders[i]!;
    const r = rdp[i]!;
    let eps: number;
    if (conversion === 'classic') eps = r - logDelta / (a - 1);
    // dp_accounting's shortcut: when δ² > 1 − e^{−rdp}, the KL bound δ ≤ √(1 − e^{−KL}) already gives ε = 0.
    else if (delta * delta + Math.expm1(-r) > 0) eps = 0;
    else eps = r - (logDelta + Math.log(a)) / (a - 1) + Math.log((a - 1) / a);
    // Strict `<`: the first minimal order wins, as NumPy's nanargmin.
    if (!Number.isNaN(eps) && (eps < best.epsilon || (Number.isNaN(best.order) && eps === Infinity))) best = { epsilon: eps, order: a };
  }
  return { epsilon: Math.max(0, best.epsilon), order: best.order };
}
