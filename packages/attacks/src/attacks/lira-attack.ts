import { InvalidArgumentError } from '@mia/core';
import type { ReferenceAttack } from './attack';
import { checkReferences, checkTarget, logPdf, median, normalCdf, queryPhi, std, type CheckedReferences } from './reference-utils';

/** Options of {@link liraAttack}. */
export interface LiraOptions {
  /** `'online'` (IN and OUT references) or `'offline'` (OUT only). @default 'online' */
  readonly mode?: 'online' | 'offline';
  /**
   * One σ for all points: the std of all IN signals (online, used for both Gaussians, as in
   * Carlini's code) or of all OUT signals (offline). Otherwise the per-point std. Recommended with
   * ≤ 64 reference models. @default true
   */
  readonly fixVariance?: boolean;
  /** Offline score: `'code'` = `−log N(φ; μ_out, σ_out)` (two-sided); `'one-sided'` = `Φ((φ − μ_out)/σ_out)` (paper). @default 'code' */
  readonly offlineForm?: 'code' | 'one-sided';
  /** Use at most this many IN and this many OUT references per point (the first ones). @default all */
  readonly maxPerSide?: number;
  /** Report name. @default `lira-${mode}` */
  readonly name?: string;
}

/**
 * LiRA (Carlini et al. 2022, "Membership inference attacks from first principles"): per point and
 * query, fit Gaussians to the reference models' φ when the point was IN / OUT (median means), then
 * score the target's φ by the likelihood ratio (online) or by the OUT tail (offline); averaged over
 * the queries (augmentations). σ gets `+1e-30`.
 *
 * @param options - {@link LiraOptions}.
 * @returns A {@link ReferenceAttack}: `prepare(references)` on the audit set, `score(target)` on the same examples.
 * @throws InvalidArgumentError when a point has no IN (online) or no OUT reference.
 * @see docs/protocol.md §3.8; §7 A28. LiRA Eq. 4 (φ), Algorithm 1.
 */
export function liraAttack(options: LiraOptions = {}): ReferenceAttack {
  const mode = options.mode ?? 'online';
  const offlineForm = options.offlineForm ?? 'code';
  const fixVariance = options.fixVariance ?? true;
  const name = options.name ?? `lira-${mode}`;
  const cap = options.maxPerSide ?? Infinity;
  let refs: CheckedReferences | undefined;
  // Per query a, per point i: μ_in, μ_out, σ_in, σ_out.
  let stats: { muIn: Float64Array; muOut: Float64Array; sdIn: Float64Array; sdOut: Float64Array }[] = [];
  return {
    name,
    async prepare(references) {
      const fn = `${name}.prepare`;
      refs = checkReferences(fn, references);
      const r = refs;
      stats = Array.from({ length: r.numQueries }, (_, a) => {
        const phis = r.models.map((m) => queryPhi(m, a));
        const s = { muIn: new Float64Array(r.size), muOut: new Float64Array(r.size), sdIn: new Float64Array(r.size), sdOut: new Float64Array(r.size) };
        const allIn: number[] = [];
        const allOut: number[] = [];
        for (let i = 0; i < r.size; i++) {
          const inside: number[] = [];
          const outside: number[] = [];
          phis.forEach((phi, k) => {
            const side = r.keep[k]![i] === 1 ? inside : outside;
            if (side.length < cap) side.push(phi[i]!);
          });
          if (outside.length === 0) throw new InvalidArgumentError(`${fn}: example ${i} has no OUT reference model; LiRA needs at least one`);
          if (mode === 'online' && inside.length === 0)
            throw new InvalidArgumentError(`${fn}: example ${i} has no IN reference model; online LiRA needs at least one (or use mode 'offline')`);
          s.muOut[i] = median(outside);
          s.sdOut[i] = std(outside);
          allOut.push(...outside);
          if (inside.length > 0) {
            s.muIn[i] = median(inside);
            s.sdIn[i] = std(inside);
            allIn.push(...inside);
          }
        }
        if (fixVariance) {
          const sigma = mode === 'online' ? std(allIn) : std(allOut);
          s.sdIn.fill(sigma);
          s.sdOut.fill(sigma);
        }
        return s;
      });
    },
    score(target) {
      const r = checkTarget(`${name}.score`, target, refs);
      const out = new Float64Array(r.size);
      stats.forEach((s, a) => {
        const phi = queryPhi(target, a);
        for (let i = 0; i < r.size; i++) {
          const x = phi[i]!;
          const sdOut = s.sdOut[i]! + 1e-30;
          let v: number;
          if (mode === 'online') v = logPdf(x, s.muIn[i]!, s.sdIn[i]! + 1e-30) - logPdf(x, s.muOut[i]!, sdOut);
          else if (offlineForm === 'code') v = -logPdf(x, s.muOut[i]!, sdOut);
          else v = normalCdf((x - s.muOut[i]!) / sdOut);
          out[i]! += v / stats.length;
        }
      });
      return out;
    },
    dispose() {},
  };
}
