import { InvalidArgumentError } from '@mia/core';
import type { ReferenceAttack } from './attack';
import { checkReferences, checkTarget, logPdf, median, normalCdf, queryPhi, std, type CheckedReferences } from './reference-utils';

/** Options of {@link liraAttack}. */
export interface LiraOptions {
  /** `'online'` (IN and OUT references) or `'offline'` (OUT only). @default 'online' */
  readonly mode?: 'online' | 'offline';
  /**
   * One σ for everything: the std of every IN signal used, over all examples, references and
   * queries (online, used for both Gaussians), or of every OUT signal used (offline), as
   * `np.std(dat_in)` / `np.std(dat_out)` in Carlini's `plot.py`. Otherwise the std per example and
   * query. Recommended with ≤ 64 reference models. @default true
   */
  readonly fixVariance?: boolean;
  /** Offline score: `'code'` = `−log N(φ; μ_out, σ_out)` (two-sided); `'one-sided'` = `Φ((φ − μ_out)/σ_out)` (paper). @default 'code' */
  readonly offlineForm?: 'code' | 'one-sided';
  /**
   * How many IN and OUT references each example uses (the first ones, in model order):
   * `'smallest'` = the same number for every example, per side the smallest count over the audit
   * set (`in_size = min(map(len, dat_in))` in `plot.py`; with complementary pairs that is numRef/2,
   * as in the RMIA authors' LiRA); `'all'` = every reference of the example. @default 'smallest'
   */
  readonly perSide?: 'smallest' | 'all';
  /** Use at most this many IN and this many OUT references per example (`plot.py`'s `in_size`/`out_size`). @default Infinity */
  readonly maxPerSide?: number;
  /** Report name. @default `lira-${mode}` */
  readonly name?: string;
}

/** Per query a, per example i: μ_in, μ_out, σ_in, σ_out (internal). */
interface QueryStats {
  readonly muIn: Float64Array;
  readonly muOut: Float64Array;
  readonly sdIn: Float64Array;
  readonly sdOut: Float64Array;
}

/** Indices of the IN and OUT reference models of every example, in model order (internal). */
function sides(r: CheckedReferences): { inside: number[][]; outside: number[][] } {
  const inside = Array.from({ length: r.size }, () => [] as number[]);
  const outside = Array.from({ length: r.size }, () => [] as number[]);
  r.keep.forEach((row, k) => row.forEach((bit, i) => (bit === 1 ? inside : outside)[i]!.push(k)));
  return { inside, outside };
}

/**
 * Population std (ddof 0) of φ over every query, example and used reference model, two-pass like
 * `np.std` but without materialising the [n, K, A] array (internal).
 */
function pooledStd(r: CheckedReferences, used: number[][]): number {
  let [sum, count, squares] = [0, 0, 0];
  const visit = (f: (v: number) => void) => {
    for (let a = 0; a < r.numQueries; a++) {
      const phis = r.models.map((m) => queryPhi(m, a));
      used.forEach((ks, i) => ks.forEach((k) => f(phis[k]![i]!)));
    }
  };
  visit((v) => ((sum += v), count++));
  const mean = sum / count;
  visit((v) => (squares += (v - mean) ** 2));
  return Math.sqrt(squares / count);
}

/**
 * LiRA (Carlini et al. 2022, "Membership inference attacks from first principles"), equal to the
 * authors' `research/mi_lira_2021/plot.py` (`generate_ours`, `generate_ours_offline`): per example
 * and query, Gaussians fitted to the reference models' φ when the example was IN / OUT (median
 * means) score the target's φ by the log-likelihood ratio (online) or by the OUT density (offline),
 * averaged over the queries (augmentations). Per side every example uses the same number of
 * references (see {@link LiraOptions.perSide}); with fixed variance one σ is pooled over every
 * example, reference and query. σ gets `+1e-30`.
 *
 * @param options - {@link LiraOptions}.
 * @returns A {@link ReferenceAttack}: `prepare(references)` on the audit set, `score(target)` on the same examples.
 * @throws InvalidArgumentError on a bad option, or when an example has no IN (online) or no OUT reference.
 * @see docs/protocol.md §3.8; §7 A28. LiRA Eq. 4 (φ), Algorithm 1.
 */
export function liraAttack(options: LiraOptions = {}): ReferenceAttack {
  const mode = options.mode ?? 'online';
  const offlineForm = options.offlineForm ?? 'code';
  const fixVariance = options.fixVariance ?? true;
  const perSide = options.perSide ?? 'smallest';
  const name = options.name ?? `lira-${mode}`;
  const cap = options.maxPerSide ?? Infinity;
  if (!(cap === Infinity || (Number.isInteger(cap) && cap >= 1)))
    throw new InvalidArgumentError(`liraAttack: maxPerSide must be a positive integer or Infinity, got ${cap}`);
  if (perSide !== 'smallest' && perSide !== 'all')
    throw new InvalidArgumentError(`liraAttack: perSide must be 'smallest' or 'all', got ${JSON.stringify(perSide)}`);
  let refs: CheckedReferences | undefined;
  let stats: QueryStats[] = [];
  return {
    name,
    async prepare(references) {
      const fn = `${name}.prepare`;
      const r = (refs = checkReferences(fn, references));
      const { inside, outside } = sides(r);
      inside.forEach((ks, i) => {
        if (mode === 'online' && ks.length === 0)
          throw new InvalidArgumentError(`${fn}: example ${i} has no IN reference model; online LiRA needs at least one (or use mode 'offline')`);
        if (outside[i]!.length === 0) throw new InvalidArgumentError(`${fn}: example ${i} has no OUT reference model; LiRA needs at least one`);
      });
      const smallest = (lists: number[][]) => lists.reduce((m, ks) => Math.min(m, ks.length), cap);
      const inSize = perSide === 'smallest' && mode === 'online' ? smallest(inside) : cap;
      const outSize = perSide === 'smallest' ? smallest(outside) : cap;
      const used = { in: inside.map((ks) => ks.slice(0, inSize)), out: outside.map((ks) => ks.slice(0, outSize)) };
      stats = Array.from({ length: r.numQueries }, (_, a) => {
        const phis = r.models.map((m) => queryPhi(m, a));
        const s: QueryStats = {
          muIn: new Float64Array(r.size),
          muOut: new Float64Array(r.size),
          sdIn: new Float64Array(r.size),
          sdOut: new Float64Array(r.size),
        };
        for (let i = 0; i < r.size; i++) {
          const outVals = used.out[i]!.map((k) => phis[k]![i]!);
          [s.muOut[i], s.sdOut[i]] = [median(outVals), std(outVals)];
          if (mode === 'online') {
            const inVals = used.in[i]!.map((k) => phis[k]![i]!);
            [s.muIn[i], s.sdIn[i]] = [median(inVals), std(inVals)];
          }
        }
        return s;
      });
      if (fixVariance) {
        // plot.py: online std_in = std_out = np.std(dat_in); offline std_out = np.std(dat_out), over the whole array.
        const sigma = pooledStd(r, mode === 'online' ? used.in : used.out);
        for (const s of stats) {
          s.sdIn.fill(sigma);
          s.sdOut.fill(sigma);
        }
      }
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
