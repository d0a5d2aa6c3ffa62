import { sensitivityShareBelow, sensitivityTopShare } from '@mia/metrics';
import { check, InvalidArgumentError, type ParameterKind } from '@mia/core';
import { flattenValues as flatten, type ValuesInput } from './flatten-values';
import type { SensitivityResult } from './compute-sensitivity';

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
  return {
    count: w.length,
    mean: sum / w.length,
    max,
    shareBelow: sensitivityShareBelow(w, threshold),
    topShare: sum === 0 ? Number.NaN : sensitivityTopShare(w, topFraction),
  };
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
  const overall = stats(
    result.groups.map((g) => g[key]),
    threshold,
    topFraction,
  );
  const modules = result.groups.map((g) => ({ name: g.name, kind: g.kind, ...stats(g[key], threshold, topFraction) }));
  return { overall, modules };
}
