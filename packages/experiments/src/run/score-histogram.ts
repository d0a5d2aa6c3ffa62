/** Counts of member and non-member scores on shared bins. */
export interface ScoreHistogram {
  /** `bins + 1` ascending bin edges; the first and last bins also hold every score beyond them. */
  readonly edges: readonly number[];
  readonly members: readonly number[];
  readonly nonMembers: readonly number[];
}

/** The `q`-quantile of ascending `sorted` values (the entry at `floor(q·(n − 1))`). */
const quantileOf = (sorted: Float64Array, q: number) => sorted[Math.floor(q * (sorted.length - 1))]!;

/**
 * Histogram of two score samples on `bins` shared equal-width bins spanning the 0.5th to the 99.5th
 * percentile of their finite values together, so that a few extreme scores do not squash the plot;
 * scores beyond that range (±Infinity included) count in the first or last bin. NaN scores are not
 * counted. With no finite score, or all of them equal, the bins span that value ± 0.5.
 */
export function scoreHistogram(members: ArrayLike<number>, nonMembers: ArrayLike<number>, bins = 30): ScoreHistogram {
  const finite = Float64Array.from([...Array.from(members), ...Array.from(nonMembers)].filter(Number.isFinite)).sort();
  let low = finite.length === 0 ? 0 : quantileOf(finite, 0.005);
  let high = finite.length === 0 ? 0 : quantileOf(finite, 0.995);
  if (!(high > low)) [low, high] = [low - 0.5, low + 0.5];
  const width = (high - low) / bins;
  const edges = Array.from({ length: bins + 1 }, (_, i) => (i === bins ? high : low + i * width));
  const count = (xs: ArrayLike<number>) => {
    const c = new Array<number>(bins).fill(0);
    for (let i = 0; i < xs.length; i++) {
      const x = xs[i]!;
      if (Number.isNaN(x)) continue;
      c[Math.min(bins - 1, Math.max(0, Math.floor((x - low) / width)))]! += 1;
    }
    return c;
  };
  return { edges, members: count(members), nonMembers: count(nonMembers) };
}
