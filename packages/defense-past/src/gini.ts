import { flattenValues, type ValuesInput } from './flatten-values';

/** `Σ_{i=1..n} (2i − n − 1)·w_(i) / (n·Σ w)` of non-negative values (sorts in place). */
function sortedGini(w: Float64Array): number {
  w.sort();
  const n = w.length;
  let weighted = 0;
  let total = 0;
  for (let i = 0; i < n; i++) {
    weighted += (2 * (i + 1) - n - 1) * w[i]!;
    total += w[i]!;
  }
  return total === 0 ? 0 : weighted / (n * total);
}

/**
 * PAST's Gini index of the shifted signed weights (PASTr `visual.ipynb::gini`, Fig. 2b): if
 * `min(w) < 0` then `w ← w − min(w)`; add 1e-10; sort; `G = Σ (2i − n − 1)·w_(i) / (n·Σ w)`.
 * It decreases as weights cluster at 0. Same numbers as `@mia/metrics` `giniShifted`.
 * @param values - All trainable parameters, flat or as a list of per-variable arrays.
 * @returns G in [0, 1).
 * @throws InvalidArgumentError on no value or a non-finite value.
 * @see docs/protocol.md §5 "Gini index", §7 A33.
 */
export function giniShifted(values: ValuesInput): number {
  const w = flattenValues('giniShifted', values);
  let min = Infinity;
  for (const v of w) min = Math.min(min, v);
  const shift = min < 0 ? -min : 0;
  for (let i = 0; i < w.length; i++) w[i] = w[i]! + shift + 1e-10;
  return sortedGini(w);
}

/**
 * The standard sparsity Gini index of `|w|` (Hurley & Rickard 2009); it increases with sparsity.
 * Same numbers as `@mia/metrics` `giniAbs`.
 * @returns G in [0, 1); 0 for an all-zero vector.
 * @throws InvalidArgumentError on no value or a non-finite value.
 * @see docs/protocol.md §5 "Gini index", §7 A33.
 */
export function giniAbs(values: ValuesInput): number {
  const w = flattenValues('giniAbs', values);
  for (let i = 0; i < w.length; i++) w[i] = Math.abs(w[i]!);
  return sortedGini(w);
}
