import { checkConfidence } from './clopper-pearson';
import { MetricsError } from './metrics-error';
import { describe } from './validate';

/**
 * The outcome of a one-run audit's guessing game: m canaries, each in the training independently
 * with probability ½; the auditor guesses "in" or "out" for r of them (abstaining on the rest) and is
 * right v times.
 */
export interface OneRunCounts {
  /** m ≥ 1: every canary, guessed on or not. */
  readonly canaries: number;
  /** r ∈ [0, m]: the guesses made (or planned: abstentions after the plan only make the bound smaller). */
  readonly guesses: number;
  /** v ∈ [0, r]: the correct guesses. */
  readonly correct: number;
}

/** Options of the one-run bounds. */
export interface OneRunBoundOptions {
  /** Confidence 1 − β of the lower bound, in (0, 1). @default 0.95 */
  readonly confidence?: number;
}

/** Validates {@link OneRunCounts} (internal). */
export function checkOneRunCounts(fn: string, counts: OneRunCounts): OneRunCounts {
  if (typeof counts !== 'object' || counts === null) {
    throw new MetricsError(`${fn}: counts must be an object {canaries, guesses, correct}, got ${describe(counts)}`);
  }
  const { canaries, guesses, correct } = counts;
  const isInteger = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
  if (!isInteger(canaries) || canaries < 1) throw new MetricsError(`${fn}: counts.canaries must be an integer ≥ 1, got ${describe(canaries)}`);
  if (!isInteger(guesses) || guesses < 0 || guesses > canaries) {
    throw new MetricsError(`${fn}: counts.guesses must be an integer in [0, ${canaries}] (at most one guess per canary), got ${describe(guesses)}`);
  }
  if (!isInteger(correct) || correct < 0 || correct > guesses) {
    throw new MetricsError(`${fn}: counts.correct must be an integer in [0, ${guesses}] (at most the guesses), got ${describe(correct)}`);
  }
  return counts;
}

/** The significance β = 1 − confidence, validated (internal). */
export function significanceOf(fn: string, options: OneRunBoundOptions | undefined): number {
  if (options !== undefined && (typeof options !== 'object' || options === null)) {
    throw new MetricsError(`${fn}: options must be an object, got ${describe(options)}`);
  }
  return 1 - checkConfidence(fn, options?.confidence ?? 0.95);
}
