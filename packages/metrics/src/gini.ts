import { checkNumber, flattenValues } from './validate';

/** Values for a Gini index: one array of numbers, or a list of arrays (all parameters) flattened together. */
export type GiniInput = ArrayLike<number> | ReadonlyArray<ArrayLike<number>>;

/** Options of {@link giniShifted}. */
export interface GiniShiftedOptions {
  /** Constant added to every (shifted) value before the index, as in the PAST notebook. @default 1e-10 */
  epsilon?: number;
}

/** `Σ_{i=1..n} (2i − n − 1)·w_(i) / (n·Σ w)` over non-negative values; sorts `w` in place. */
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
 * PAST's Gini index of the **shifted signed** weights (PASTr `examples/visual.ipynb`, `gini`):
 * flatten all values into w; if `min(w) < 0` set `w ← w − min(w)`; add `epsilon`; sort ascending;
 * `G = Σ_{i=1..n} (2i − n − 1)·w_(i) / (n·Σ w_i)`. It *decreases* as weights cluster at 0 (what
 * PAST Fig. 2b plots); it is not the standard sparsity Gini ({@link giniAbs}).
 *
 * @param values - The flattened trainable parameters (weights, biases, BN), or a list of per-variable arrays.
 * @param options - {@link GiniShiftedOptions}.
 * @returns G in [0, 1).
 * @throws MetricsError when there is no value, a value is NaN or infinite, or epsilon is negative.
 * @see docs/protocol.md §5 "Gini index"; §7 A33; PAST Fig. 2b.
 */
export function giniShifted(values: GiniInput, options: GiniShiftedOptions = {}): number {
  const epsilon = checkNumber('giniShifted', 'epsilon', options.epsilon ?? 1e-10, 0);
  const w = flattenValues('giniShifted', 'values', values);
  let min = Infinity;
  for (const v of w) min = Math.min(min, v);
  const shift = min < 0 ? -min : 0;
  for (let i = 0; i < w.length; i++) w[i] = w[i]! + shift + epsilon;
  return sortedGini(w);
}

/**
 * The standard sparsity Gini index of `|w|` (Hurley & Rickard 2009, the `G` measure):
 * with `c = sort(|w|)` ascending, `G = 1 − 2·Σ_k (c_k/‖c‖₁)·(n − k + ½)/n`, which equals
 * `Σ_{k=1..n} (2k − n − 1)·c_k / (n·Σ c)`. 0 for equal magnitudes, `1 − 1/n` for one non-zero
 * value; it *increases* with sparsity. An all-zero vector gives 0.
 *
 * @param values - The values, or a list of per-variable arrays.
 * @returns G in [0, 1).
 * @throws MetricsError when there is no value or a value is NaN or infinite.
 * @see Hurley & Rickard, "Comparing measures of sparsity", IEEE Trans. Inf. Theory 55(10), 2009;
 *   docs/protocol.md §5 "Gini index", §7 A33.
 */
export function giniAbs(values: GiniInput): number {
  const w = flattenValues('giniAbs', 'values', values);
  for (let i = 0; i < w.length; i++) w[i] = Math.abs(w[i]!);
  return sortedGini(w);
}
