import { InvalidArgumentError } from '@mia/core';

function ranks(values: readonly number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(values.length);
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++;
    // Ties share the mean of their 1-based ranks.
    for (let k = i; k <= j; k++) out[order[k]![1]] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return out;
}

/**
 * Spearman's rank correlation of two equally long samples (Pearson correlation of the ranks, ties
 * ranked by their mean), in [−1, 1]; NaN when one sample is constant. Used for the trend claims of
 * CCL Fig. 4 ("the loss variance grows as α decreases").
 * @throws InvalidArgumentError when the lengths differ or fewer than 2 pairs are given.
 */
export function spearman(x: readonly number[], y: readonly number[]): number {
  if (x.length !== y.length || x.length < 2) throw new InvalidArgumentError(`spearman: x and y must have the same length ≥ 2, got ${x.length} and ${y.length}`);
  const rx = ranks(x);
  const ry = ranks(y);
  const n = x.length;
  const mean = (n + 1) / 2;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = rx[i]! - mean;
    const dy = ry[i]! - mean;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxy / Math.sqrt(sxx * syy);
}
