/** Histogram of two samples on shared bins `[0, upper]` (upper = 99th percentile of both), for the loss plots. */
export function sharedHistogram(a: ArrayLike<number>, b: ArrayLike<number>, bins = 30): { edges: number[]; members: number[]; nonMembers: number[] } {
  const all = Float64Array.from([...Array.from(a), ...Array.from(b)]).sort();
  const upper = Math.max(1e-6, all[Math.min(all.length - 1, Math.floor(0.99 * all.length))] ?? 1);
  const edges = Array.from({ length: bins + 1 }, (_, i) => (upper * i) / bins);
  const count = (xs: ArrayLike<number>) => {
    const c = new Array<number>(bins).fill(0);
    for (let i = 0; i < xs.length; i++) c[Math.min(bins - 1, Math.max(0, Math.floor((xs[i]! / upper) * bins)))]! += 1;
    return c;
  };
  return { edges, members: count(a), nonMembers: count(b) };
}
