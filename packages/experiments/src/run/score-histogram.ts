/** Counts of member and non-member scores on shared bins. */
export interface ScoreHistogram {
  /** `bins + 1` ascending bin edges; the first and last bins also hold every score beyond them. */
  readonly edges: readonly number[];
  readonly members: readonly number[];
  readonly nonMembers: readonly number[];
}

/**
 * Both samples counted on `edges.length − 1` shared bins: a value goes to bin `floor(position(x))`,
 * clamped to the first and last bin (±Infinity included); NaN is not counted.
 */
function countOnSharedBins(
  members: ArrayLike<number>,
  nonMembers: ArrayLike<number>,
  edges: readonly number[],
  position: (x: number) => number,
): ScoreHistogram {
  const bins = edges.length - 1;
  const count = (xs: ArrayLike<number>) => {
    const c = new Array<number>(bins).fill(0);
    for (let i = 0; i < xs.length; i++) {
      const x = xs[i]!;
      if (Number.isNaN(x)) continue;
      c[Math.min(bins - 1, Math.max(0, Math.floor(position(x))))]! += 1;
    }
    return c;
  };
  return { edges, members: count(members), nonMembers: count(nonMembers) };
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
  return countOnSharedBins(members, nonMembers, edges, (x) => (x - low) / width);
}

/**
 * Histogram of the members' and non-members' losses on `bins` shared equal-width bins `[0, upper]`,
 * upper = the 99th percentile of both samples together (at least 1e-6), for the report's loss plots;
 * losses beyond it count in the last bin, NaN losses are not counted.
 */
export function lossHistogram(members: ArrayLike<number>, nonMembers: ArrayLike<number>, bins = 30): ScoreHistogram {
  const all = Float64Array.from([...Array.from(members), ...Array.from(nonMembers)]).sort();
  const upper = Math.max(1e-6, all[Math.min(all.length - 1, Math.floor(0.99 * all.length))] ?? 1);
  // The edges and bin positions keep their own float expressions: results.json holds these numbers.
  const edges = Array.from({ length: bins + 1 }, (_, i) => (upper * i) / bins);
  return countOnSharedBins(members, nonMembers, edges, (x) => (x / upper) * bins);
}
