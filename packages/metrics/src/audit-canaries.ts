import { guessesOf, type CanaryGuesses, type GuessPlan } from './canary-guesses';
import { checkConfidence } from './clopper-pearson';
import { epsilonOfMu } from './gaussian-dp';
import { MetricsError } from './metrics-error';
import { epsilonFromCounts } from './one-run-epsilon';
import { muFromCounts } from './one-run-gdp';
import { describe, type Membership, type Scores } from './validate';

/** Options of {@link auditCanaries}. */
export interface AuditCanariesOptions {
  /** The δ of the (ε, δ) statements, in (0, 1). */
  readonly delta: number;
  /** Confidence 1 − β of both lower bounds. @default 0.95 */
  readonly confidence?: number;
  /**
   * The guesses, fixed before the scores are seen: "in" for the `positive` highest scores, "out" for
   * the `negative` lowest. @default `{ positive: ⌊m/5⌋, negative: ⌊m/5⌋ }` (r = 0.4·m guesses)
   */
  readonly guesses?: GuessPlan;
}

/** Result of {@link auditCanaries}. */
export interface CanaryAudit {
  /** The guessing game: plan (k₊, k₋), m, canaries included, guesses made, correct guesses. */
  readonly guesses: CanaryGuesses;
  readonly delta: number;
  readonly confidence: number;
  /** Steinke et al.'s bound ({@link oneRunEpsilon}); `maxEpsilon`: its value had every planned guess been right. */
  readonly oneRun: { readonly epsilon: number; readonly maxEpsilon: number };
  /** The Gaussian-DP bound ({@link oneRunGdp}); `maxMu`/`maxEpsilon`: its values had every planned guess been right. */
  readonly gdp: { readonly mu: number; readonly epsilon: number; readonly maxMu: number; readonly maxEpsilon: number };
}

/**
 * A one-run privacy audit from canary scores: the guessing game ({@link canaryGuesses}), then both
 * lower bounds from the same guesses — Steinke et al.'s ε for any (ε, δ)-DP training
 * ({@link oneRunEpsilon}) and the Gaussian-DP μ with its ε at δ ({@link oneRunGdp}) — each at
 * `confidence`, with the largest values these guesses could ever prove (every guess right), which say
 * whether the audit can refute a claimed ε at all.
 *
 * The default plan, k₊ = k₋ = ⌊m/5⌋, is fixed in advance (no selection on the scores, so no union
 * bound): at m = 1,000 its 400 guesses are the fewest with which near-perfect guesses can prove
 * μ > 1.67, the Gaussian reading of ε = 8 at δ = 10⁻⁵ (all-correct guesses prove μ ≤ 1.54 with 200,
 * 1.87 with 400), while weaker scores keep most of their power.
 *
 * @param scores - one score per canary (by canary id), higher = more likely included.
 * @param inclusion - per canary id, whether the training included it (boolean or 0/1).
 * @param options - {@link AuditCanariesOptions}.
 * @returns {@link CanaryAudit}.
 * @throws MetricsError on bad scores, inclusion, plan, δ or confidence.
 * @see Steinke, Nasr & Jagielski (2023), arXiv:2305.08846; Mahloujifar, Melis & Chaudhuri (2024), arXiv:2410.22235
 */
export function auditCanaries(scores: Scores, inclusion: Membership, options: AuditCanariesOptions): CanaryAudit {
  const fn = 'auditCanaries';
  if (typeof options !== 'object' || options === null)
    throw new MetricsError(`${fn}: options must be an object {delta, confidence?, guesses?}, got ${describe(options)}`);
  const { delta } = options;
  if (typeof delta !== 'number' || !(delta > 0 && delta < 1)) throw new MetricsError(`${fn}: delta must be a number in (0, 1), got ${describe(delta)}`);
  const confidence = checkConfidence(fn, options.confidence ?? 0.95);
  const m = typeof scores === 'object' && scores !== null && typeof scores.length === 'number' ? scores.length : 0;
  const plan = options.guesses ?? { positive: Math.floor(m / 5), negative: Math.floor(m / 5) };
  const guesses = guessesOf(fn, scores, inclusion, plan);
  const beta = 1 - confidence;
  const { canaries, guesses: r, correct: v } = guesses;
  const mu = muFromCounts(canaries, r, v, beta);
  const maxMu = muFromCounts(canaries, r, r, beta);
  return {
    guesses,
    delta,
    confidence,
    oneRun: { epsilon: epsilonFromCounts(canaries, r, v, delta, beta), maxEpsilon: epsilonFromCounts(canaries, r, r, delta, beta) },
    gdp: { mu, epsilon: epsilonOfMu(mu, delta), maxMu, maxEpsilon: epsilonOfMu(maxMu, delta) },
  };
}
