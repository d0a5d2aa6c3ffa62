import { check, InvalidArgumentError, type ParameterKind } from '@mia/core';
import { flattenValues as flatten, type ValuesInput } from './flatten-values';
import type { SensitivityResult } from './compute-sensitivity';

/**
 * Share of values strictly below `threshold` (PAST §3.1: "97 % of the parameters have privacy
 * sensitivities lower than 0.1"). Same definition as `@mia/metrics` `sensitivityShareBelow`.
 * @returns A fraction in [0, 1].
 * @throws InvalidArgumentError on no value or a non-finite value or threshold.
 * @see docs/protocol.md §5 "Privacy sensitivity distribution".
 */
export function sensitivityShareBelow(values: ValuesInput, threshold: number): number {
  check(Number.isFinite(threshold), 'sensitivityShareBelow', 'threshold', 'a finite number', threshold);
  const w = flatten('sensitivityShareBelow', values);
  let count = 0;
  for (const v of w) if (v < threshold) count++;
  return count / w.length;
}

/**
 * Share of the total held by the top `fraction` of values (PAST §3.1: "the top 20 % of parameters
 * hold 89.27 % of the cumulative sensitivity"): sort descending, cumulative sum at 0-based index
 * `min(⌊fraction·n⌋, n − 1)`, divided by the total. Same definition as `@mia/metrics` `sensitivityTopShare`.
 * @returns A fraction in [0, 1].
 * @throws InvalidArgumentError on no value, a negative or non-finite value, all zeros, or fraction outside [0, 1].
 * @see docs/protocol.md §5 "Privacy sensitivity distribution".
 */
export function sensitivityTopShare(values: ValuesInput, fraction: number): number {
  const fn = 'sensitivityTopShare';
  check(Number.isFinite(fraction) && fraction >= 0 && fraction <= 1, fn, 'fraction', 'a number in [0, 1]', fraction);
  const w = flatten(fn, values).sort();
  const n = w.length;
  if (w[0]! < 0) throw new InvalidArgumentError(`${fn}: values must be non-negative, got ${w[0]}`);
  const last = Math.min(Math.floor(fraction * n), n - 1);
  let total = 0;
  let top = 0;
  for (let i = n - 1; i >= 0; i--) {
    total += w[i]!;
    if (n - 1 - i === last) top = total;
  }
  if (total === 0) throw new InvalidArgumentError(`${fn}: values must not all be 0 (the share is undefined), got ${n} zeros`);
  return top / total;
}

/** Summary statistics of one set of sensitivities. */
export interface SensitivityStats {
  readonly count: number;
  readonly mean: number;
  readonly max: number;
  /** {@link sensitivityShareBelow} at the threshold. */
  readonly shareBelow: number;
  /** {@link sensitivityTopShare} at the top fraction (NaN when every value is 0). */
  readonly topShare: number;
}

/** Options of {@link summarizeSensitivity}. */
export interface SummarizeSensitivityOptions {
  /** Which values: raw `|∇G|` (Fig. 1b) or normalised γ. @default 'gradientGap' */
  readonly values?: 'gradientGap' | 'gamma';
  /** @default 0.1 */
  readonly threshold?: number;
  /** @default 0.2 */
  readonly topFraction?: number;
}

function stats(values: ValuesInput, threshold: number, topFraction: number): SensitivityStats {
  const w = flatten('summarizeSensitivity', values);
  let sum = 0;
  let max = -Infinity;
  for (const v of w) {
    sum += v;
    max = Math.max(max, v);
  }
  return { count: w.length, mean: sum / w.length, max, shareBelow: sensitivityShareBelow(w, threshold), topShare: sum === 0 ? Number.NaN : sensitivityTopShare(w, topFraction) };
}

/** Result of {@link summarizeSensitivity}. */
export interface SensitivitySummary {
  /** Every regularised parameter together. */
  readonly overall: SensitivityStats;
  /** One entry per regularised tensor, in `parameterGroups` order. */
  readonly modules: ReadonlyArray<SensitivityStats & { readonly name: string; readonly kind: ParameterKind }>;
}

/**
 * Whole-model and per-module summaries of a {@link computeSensitivity} result, for the paper's
 * sensitivity figures (Fig. 1b overall; Fig. 9/13 per module).
 * @param result - From {@link computeSensitivity}.
 * @param options - {@link SummarizeSensitivityOptions}.
 * @returns `{overall, modules: [{name, kind, ...stats}]}`.
 * @throws InvalidArgumentError on a non-finite threshold or a fraction outside [0, 1].
 * @see docs/protocol.md §5 "Privacy sensitivity distribution".
 */
export function summarizeSensitivity(result: SensitivityResult, options: SummarizeSensitivityOptions = {}): SensitivitySummary {
  const key = options.values ?? 'gradientGap';
  const threshold = options.threshold ?? 0.1;
  const topFraction = options.topFraction ?? 0.2;
  const overall = stats(result.groups.map((g) => g[key]), threshold, topFraction);
  const modules = result.groups.map((g) => ({ name: g.name, kind: g.kind, ...stats(g[key], threshold, topFraction) }));
  return { overall, modules };
}
