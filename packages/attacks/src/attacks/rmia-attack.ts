import { InvalidArgumentError } from '@mia/core';
import { auc } from '@mia/metrics';
import type { ModelSignals } from '../signals/model-signals';
import type { ReferenceAttack } from './attack';
import { checkPopulation, checkReferences, checkTarget, type CheckedReferences } from './reference-utils';
import { rmiaProbability, type RmiaSignal } from './rmia-signal';
import { rmiaPairwiseScores } from './rmia-scores';

/** Options of {@link rmiaAttack}. */
export interface RmiaOptions {
  /** `'offline'` (OUT references, `a`-corrected) or `'online'` (mean over all references). @default 'offline' */
  readonly mode?: 'offline' | 'online';
  /** Offline correction `a`, or `'tune'`: the value in {0, 0.1, …, 1} maximising the AUC of the paired reference model (PMm). @default 'tune' */
  readonly a?: number | 'tune';
  /** Index of the reference model used as the stand-in target when tuning `a`. @default 0 */
  readonly pairedModel?: number;
  /** Threshold γ on the likelihood ratio `r(x)/r(z)`. @default 1 (PMm) */
  readonly gamma?: number;
  /** `Pr(x|θ)`. @default 'softmax' */
  readonly signal?: RmiaSignal;
  /**
   * Trim this fraction of the reference signals from each end before averaging them into `Pr(x)`
   * (online: all references; offline: the OUT references), as scipy's `trim_mean` in PMr (0.2 in
   * its configs, both modes). @default 0 (plain mean, PMm)
   */
  readonly trim?: number;
  /** Indices (into the audit set) of the population z; a point never counts against itself. @default all */
  readonly population?: ArrayLike<number>;
  readonly name?: string;
}

/** Per-query `Pr(x|θ)` of one model: `[A][n]` (internal). */
function probabilities(s: ModelSignals, signal: RmiaSignal): Float64Array[] {
  return s.queries === undefined || s.queries.length === 0 ? [rmiaProbability(s, signal)] : s.queries.map((q) => rmiaProbability(q, signal));
}

function mean(values: number[], trim: number): number {
  const cut = Math.floor(values.length * trim);
  const kept = cut > 0 ? [...values].sort((x, y) => x - y).slice(cut, values.length - cut) : values;
  return kept.reduce((s, v) => s + v, 0) / kept.length;
}

/**
 * RMIA (Zarifzadeh et al. 2024): `r(x) = Pr(x|θ_T)/Pr(x)` with `Pr(x)` from reference models
 * (offline: `½((1+a)·Pr_OUT(x) + (1−a))`); `score(x) = #{z ∈ Z : r(x)/r(z) > γ}/|Z|`, exactly the
 * authors' pairwise test for any sign of the signal, computed in O((|X|+|Z|) log |Z|) with one
 * query; with several queries, a majority vote over queries per pair. Defaults follow PMm
 * (`attacks.py`; docs/protocol.md §7 A29): offline, `a` tuned on the paired reference model,
 * γ = 1, softmax signal, plain mean.
 *
 * @returns A {@link ReferenceAttack}; `chosenA` holds the tuned `a` after `prepare`.
 * @throws InvalidArgumentError on a bad option, when a point has no OUT reference (offline), or when tuning has no other reference.
 * @see docs/protocol.md §3.9; §7 A29.
 */
export function rmiaAttack(options: RmiaOptions = {}): ReferenceAttack & { readonly chosenA: number | undefined } {
  const mode = options.mode ?? 'offline';
  const gamma = options.gamma ?? 1;
  const signal = options.signal ?? 'softmax';
  const trim = options.trim ?? 0;
  const name = options.name ?? `rmia-${mode}`;
  if (!(gamma > 0)) throw new InvalidArgumentError(`rmiaAttack: gamma must be a positive number, got ${gamma}`);
  if (!(trim >= 0 && trim < 0.5)) throw new InvalidArgumentError(`rmiaAttack: trim must be a fraction in [0, 0.5), got ${trim}`);
  if (options.a !== undefined && options.a !== 'tune' && !(options.a >= 0 && options.a <= 1))
    throw new InvalidArgumentError(`rmiaAttack: a must be 'tune' or a number in [0, 1], got ${options.a}`);
  let refs: CheckedReferences | undefined;
  let refProbs: Float64Array[][] = [];
  let population: Int32Array = new Int32Array(0);
  let a = typeof options.a === 'number' ? options.a : undefined;

  /** `Pr(x)` per query and point from the reference models `use` (internal). */
  const marginal = (r: CheckedReferences, use: number[], aValue: number): Float64Array[] =>
    Array.from({ length: r.numQueries }, (_, q) =>
      Float64Array.from({ length: r.size }, (_, i) => {
        const values = use.filter((k) => mode === 'online' || r.keep[k]![i] === 0).map((k) => refProbs[k]![q]![i]!);
        if (values.length === 0) throw new InvalidArgumentError(`${name}: example ${i} has no ${mode === 'online' ? '' : 'OUT '}reference model`);
        const m = mean(values, trim);
        return mode === 'online' ? m : 0.5 * ((1 + aValue) * m + (1 - aValue));
      }),
    );
  const scoresOf = (target: Float64Array[], prior: Float64Array[]): Float64Array =>
    rmiaPairwiseScores(
      target.map((t, q) => t.map((v, i) => v / prior[q]![i]!)),
      population,
      gamma,
    );

  return {
    name,
    get chosenA() {
      return a;
    },
    async prepare(references) {
      refs = checkReferences(`${name}.prepare`, references);
      population = checkPopulation(`${name}.prepare`, options.population, refs.size);
      refProbs = refs.models.map((m) => probabilities(m, signal));
      if (mode === 'offline' && options.a !== undefined && options.a !== 'tune') return;
      if (mode === 'online') return;
      const paired = options.pairedModel ?? 0;
      const others = refs.models.map((_, k) => k).filter((k) => k !== paired);
      if (paired < 0 || paired >= refs.models.length || others.length === 0) {
        throw new InvalidArgumentError(
          `${name}.prepare: tuning a needs a paired model index in [0, ${refs.models.length - 1}] and at least one other reference, got pairedModel ${paired} with ${refs.models.length} models`,
        );
      }
      let best = -1;
      for (let step = 0; step <= 10; step++) {
        const candidate = step / 10;
        const value = auc(scoresOf(refProbs[paired]!, marginal(refs, others, candidate)), refs.keep[paired]!);
        if (value > best) [best, a] = [value, candidate];
      }
    },
    score(target) {
      const r = checkTarget(`${name}.score`, target, refs);
      return scoresOf(
        probabilities(target, signal),
        marginal(
          r,
          r.models.map((_, k) => k),
          a ?? 0,
        ),
      );
    },
    dispose() {},
  };
}
