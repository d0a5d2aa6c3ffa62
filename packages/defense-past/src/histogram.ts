import { check } from '@mia/core';
import { flattenValues, type ValuesInput } from './flatten-values';

/** A histogram as plain data: `counts[i]` values fall in `[edges[i], edges[i + 1])` (the last bin is closed). */
export interface Histogram {
  /** `bins + 1` increasing edges. */
  readonly edges: number[];
  readonly counts: number[];
}

/** Options of {@link histogram} and {@link sharedHistograms}. */
export interface HistogramOptions {
  /** @default 100 */
  readonly bins?: number;
  /** `[min, max]`; values outside are not counted. @default the data range */
  readonly range?: readonly [number, number];
}

/**
 * Counts values into equal-width bins (PAST Fig. 2a, weight distributions; Fig. 1b, sensitivity
 * distribution).
 * @throws InvalidArgumentError on no or non-finite values, a bad bin count or range.
 */
export function histogram(values: ValuesInput, options: HistogramOptions = {}): Histogram {
  return sharedHistograms([flattenValues('histogram', values)], options)[0]!;
}

/**
 * Histograms of several value sets over the same bins (e.g. weights before and after tuning,
 * PAST Fig. 2a); the default range covers every set.
 * @throws InvalidArgumentError on no or non-finite values, a bad bin count or range.
 */
export function sharedHistograms(series: ReadonlyArray<ValuesInput>, options: HistogramOptions = {}): Histogram[] {
  const bins = options.bins ?? 100;
  check(Number.isInteger(bins) && bins > 0, 'histogram', 'bins', 'a positive integer', bins);
  const arrays = series.map((s) => flattenValues('histogram', s));
  let [lo, hi] = options.range ?? [Infinity, -Infinity];
  if (options.range === undefined) {
    for (const a of arrays) for (const v of a) [lo, hi] = [Math.min(lo, v), Math.max(hi, v)];
  }
  check(Number.isFinite(lo) && Number.isFinite(hi) && lo <= hi, 'histogram', 'range', 'finite [min, max] with min <= max', options.range);
  if (lo === hi) [lo, hi] = [lo - 0.5, hi + 0.5];
  const width = (hi - lo) / bins;
  const edges = Array.from({ length: bins + 1 }, (_, i) => (i === bins ? hi : lo + i * width));
  return arrays.map((a) => {
    const counts = new Array<number>(bins).fill(0);
    for (const v of a) {
      if (v < lo || v > hi) continue;
      counts[Math.min(bins - 1, Math.floor((v - lo) / width))]! += 1;
    }
    return { edges, counts };
  });
}
