import { InvalidArgumentError } from '@mia/core';
import type { ModelSignals } from '../signals/model-signals';
import { checkSplit } from './check-signals';
import { metricAttack, type MetricAttack, type ThresholdMode } from './metric-attack';
import { logPdf, std } from './reference-utils';

/**
 * CCLr's extra "likelihood ratio" metric attack (`metric_based_attack.py::_likelihood_ratio_data`):
 * fit global Gaussians `N(μ_in, σ_in)` to φ of the shadow members and `N(μ_out, σ_out)` to φ of the
 * shadow non-members (population std, ddof 0), score `log pdf_in(φ) − log pdf_out(φ)` (the log of
 * CCLr's ratio: same ordering, AUC and decisions, without overflow), then per-class thresholds.
 * Not in any of the papers; optional.
 *
 * @param options - `mode` as in {@link metricAttack}. @default 'song-mittal'
 * @see docs/protocol.md §3.1 "CCLr-only extra".
 */
export function likelihoodRatioAttack(options: { readonly name?: string; readonly mode?: ThresholdMode } = {}): MetricAttack {
  const name = options.name ?? 'likelihood-ratio';
  let fit: { muIn: number; sdIn: number; muOut: number; sdOut: number } | undefined;
  const statistic = (s: ModelSignals): Float64Array => {
    if (fit === undefined) throw new InvalidArgumentError(`${name}: call prepare() before scoring`);
    const f = fit;
    return s.phi.map((x) => logPdf(x, f.muIn, f.sdIn) - logPdf(x, f.muOut, f.sdOut));
  };
  const inner = metricAttack(statistic, { name, mode: options.mode ?? 'song-mittal' });
  const mean = (v: Float64Array) => v.reduce((a, b) => a + b, 0) / v.length;
  return {
    name,
    get thresholds() {
      return inner.thresholds;
    },
    get globalThreshold() {
      return inner.globalThreshold;
    },
    get fallbackClasses() {
      return inner.fallbackClasses;
    },
    async prepare(shadow) {
      checkSplit(`${name}.prepare`, shadow);
      const [m, n] = [shadow.members.phi, shadow.nonMembers.phi];
      // A zero std (all φ equal) would make the density degenerate; 1e-30 keeps it finite like LiRA.
      fit = { muIn: mean(m), sdIn: std(m) + 1e-30, muOut: mean(n), sdOut: std(n) + 1e-30 };
      await inner.prepare(shadow);
    },
    score: (target) => inner.score(target),
    decide: (target) => inner.decide!(target),
    report: (target, isMember) => inner.report!(target, isMember),
    dispose() {},
  };
}
