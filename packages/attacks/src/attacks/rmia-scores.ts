/** First index in `[0, n)` where `test` holds, for a `test` that is false on a prefix and true after it (internal). */
function partitionPoint(n: number, test: (k: number) => boolean): number {
  let [lo, hi] = [0, n];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (test(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The population's ratios split by sign, so each part is monotone for the pairwise test (internal). */
interface SplitRatios {
  /** r(z) > 0 (with +∞), ascending. */
  readonly positive: Float64Array;
  /** r(z) < 0 (with −∞), ascending. */
  readonly negative: Float64Array;
  readonly plusZero: number;
  readonly minusZero: number;
}

function splitBySign(values: Float64Array): SplitRatios {
  const positive = values.filter((v) => v > 0).sort();
  const negative = values.filter((v) => v < 0).sort();
  let [plusZero, minusZero] = [0, 0];
  for (const v of values) if (v === 0) Object.is(v, -0) ? minusZero++ : plusZero++;
  return { positive, negative, plusZero, minusZero }; // NaN ratios never pass the test and are only counted in |Z|
}

/**
 * `#{z : r(x)/r(z) > γ}` with the division evaluated as in the authors' pairwise matrix, in
 * O(log |Z|). Correctly rounded division is monotone in the divisor on each side of zero, so over
 * the ascending positive r(z) the test holds on a prefix and over the ascending negative r(z) on a
 * suffix, for any r(x) (it holds nowhere when r(x) has the other sign, as γ > 0); a zero r(z)
 * gives ±∞ or NaN, the same for every zero of one sign (internal).
 */
function countAbove(rx: number, z: SplitRatios, gamma: number): number {
  const pass = (rz: number) => rx / rz > gamma;
  const { positive: p, negative: q } = z;
  const prefix = partitionPoint(p.length, (k) => !pass(p[k]!));
  const suffix = q.length - partitionPoint(q.length, (k) => pass(q[k]!));
  return prefix + suffix + (pass(0) ? z.plusZero : 0) + (pass(-0) ? z.minusZero : 0);
}

/**
 * RMIA pairwise scores from likelihood ratios `ratios[q][i]` (one row per query): the fraction of
 * population points z with `r(x)/r(z) > γ` (the division and strict test of PMm's
 * `ratios = prob_ratio_x[:, None] / prob_ratio_z; ratios > 1.0`), never counting x against itself
 * (each occurrence of x in the population is left out of the count and of |Z|). One query: the
 * population is split by the sign of r(z) and each part sorted, O((|X| + |Z|) log |Z|), exact for
 * any sign of r (the Taylor signal can be zero or negative). Several queries: a pair counts when
 * more than half of the queries pass the test (PMr majority vote), O(|X|·|Z|·A). With one query
 * both paths give the same result.
 *
 * @param ratios - `r(x)` per query and audit example, `[A][n]`.
 * @param population - Indices into the audit set of the population z (may repeat).
 * @param gamma - The threshold γ > 0.
 * @returns One score per audit example in [0, 1] (0 when the population has no other point).
 * @see docs/protocol.md §3.9 "Score", "Memory".
 */
export function rmiaPairwiseScores(ratios: Float64Array[], population: Int32Array, gamma: number): Float64Array {
  const n = ratios[0]!.length;
  const out = new Float64Array(n);
  const occurrences = new Int32Array(n);
  for (const z of population) occurrences[z]!++;
  if (ratios.length === 1) {
    const r = ratios[0]!;
    const split = splitBySign(Float64Array.from(population, (z) => r[z]!));
    for (let i = 0; i < n; i++) {
      const self = occurrences[i]!;
      const count = countAbove(r[i]!, split, gamma) - (self > 0 && r[i]! / r[i]! > gamma ? self : 0);
      const size = population.length - self;
      out[i] = size > 0 ? count / size : 0;
    }
    return out;
  }
  for (let i = 0; i < n; i++) {
    let count = 0;
    for (const z of population) {
      if (z === i) continue;
      let votes = 0;
      for (const r of ratios) if (r[i]! / r[z]! > gamma) votes++;
      if (votes > ratios.length / 2) count++;
    }
    const size = population.length - occurrences[i]!;
    out[i] = size > 0 ? count / size : 0;
  }
  return out;
}
