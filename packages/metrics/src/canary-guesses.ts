import { MetricsError } from './metrics-error';
import { checkInteger, checkSameLength, describe, toNumbers, type Membership, type Scores } from './validate';

/** How many guesses a one-run audit makes: "in" for the `positive` highest scores, "out" for the `negative` lowest. */
export interface GuessPlan {
  /** k₊: guess "in" for this many highest-scoring canaries. */
  readonly positive: number;
  /** k₋: guess "out" for this many lowest-scoring canaries. */
  readonly negative: number;
}

/** Result of {@link canaryGuesses}: the plan and how it went. */
export interface CanaryGuesses extends GuessPlan {
  /** m: every canary. */
  readonly canaries: number;
  /** Canaries the training included. */
  readonly included: number;
  /** r = k₊ + k₋, the planned guesses (what the bounds use). */
  readonly guesses: number;
  /** Guesses made: r, or 0 when every score is the same (see {@link canaryGuesses}). */
  readonly made: number;
  /** v: correct guesses ("in" on an included canary, "out" on an excluded one). */
  readonly correct: number;
}

/** The inclusion vector as 0/1 (internal). */
export function toInclusion(fn: string, inclusion: unknown, length: number): Uint8Array {
  checkSameLength(fn, 'scores', { length }, 'inclusion', inclusion);
  const values = inclusion as ArrayLike<unknown>;
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) {
    const v = values[i];
    if (v === true || v === 1) out[i] = 1;
    else if (v !== false && v !== 0) throw new MetricsError(`${fn}: inclusion[${i}] must be a boolean or 0/1, got ${describe(v)}`);
  }
  return out;
}

/**
 * The guessing game of a one-run audit (Steinke, Nasr & Jagielski 2023, Algorithm 1): guess "in" for
 * the k₊ highest scores and "out" for the k₋ lowest, abstain on the rest, and count the correct
 * guesses against the inclusion vector. The plan must be fixed before the scores are seen (a plan
 * picked as the best of several on the same scores needs a union bound over them). Ties are broken by
 * canary id (independent of the inclusion, so the guesses remain a valid function of the scores: a
 * training without noise leaves every excluded dedicated canary at exactly 0, and those must still be
 * guessed); when every score is the same the scores carry nothing and no guess is made (the bounds,
 * which keep the planned r = k₊ + k₋, are then exactly 0).
 *
 * Scores: higher = more likely "in" (included in the training).
 *
 * @param scores - one score per canary, by canary id (no NaN; ±Infinity allowed).
 * @param inclusion - per canary id, whether the training included it (boolean or 0/1).
 * @param plan - {@link GuessPlan} with k₊ + k₋ ≤ m.
 * @returns {@link CanaryGuesses}.
 * @throws MetricsError on empty or NaN scores, an inclusion of another length or with other values, or a bad plan.
 * @see Steinke, Nasr & Jagielski (2023), arXiv:2305.08846, Algorithm 1 (input: k₊, k₋)
 */
export function canaryGuesses(scores: Scores, inclusion: Membership, plan: GuessPlan): CanaryGuesses {
  return guessesOf('canaryGuesses', scores, inclusion, plan);
}

/** {@link canaryGuesses} with the caller's name in error messages (internal). */
export function guessesOf(fn: string, scores: Scores, inclusion: Membership, plan: GuessPlan): CanaryGuesses {
  const values = toNumbers(fn, 'scores', scores);
  const m = values.length;
  const included = toInclusion(fn, inclusion, m);
  if (typeof plan !== 'object' || plan === null) throw new MetricsError(`${fn}: guesses must be an object {positive, negative}, got ${describe(plan)}`);
  const positive = checkInteger(fn, 'guesses.positive', plan.positive, 0, m);
  const negative = checkInteger(fn, 'guesses.negative', plan.negative, 0, m);
  if (positive + negative > m) {
    throw new MetricsError(`${fn}: guesses.positive + guesses.negative must be at most the ${m} canaries, got ${positive} + ${negative}`);
  }
  // One total order, ascending by score and then by canary id (the ids are independent of the
  // inclusion, so breaking ties by them keeps the guesses a valid function of the scores).
  const order = Array.from(values.keys()).sort((a, b) => (values[a]! < values[b]! ? -1 : values[a]! > values[b]! ? 1 : a - b));
  const constant = values[order[0]!] === values[order[m - 1]!];
  let made = 0;
  let correct = 0;
  if (!constant) {
    for (let j = 0; j < negative; j++) if (included[order[j]!] === 0) correct++;
    for (let j = m - positive; j < m; j++) if (included[order[j]!] === 1) correct++;
    made = positive + negative;
  }
  let includedCount = 0;
  for (const v of included) includedCount += v;
  return { canaries: m, included: includedCount, positive, negative, guesses: positive + negative, made, correct };
}
