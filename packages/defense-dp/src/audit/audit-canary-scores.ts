import { check } from '@mia/core';
import { auditCanaries, type CanaryAudit, type GuessPlan } from '@mia/metrics';

/** Which lower bound decides whether a DP claim is broken. */
export type DpAuditDecision = 'gdp' | 'one-run';

/** The audit settings shared by {@link auditCanaryScores} and `auditDpTraining`. */
export interface DpAuditSettings {
  /** The δ of the claim, in (0, 1). */
  readonly delta: number;
  /** Confidence 1 − β of the lower bounds. @default 0.95 */
  readonly confidence?: number;
  /** The guesses, fixed in advance: "in" for the `positive` highest scores, "out" for the `negative` lowest. @default ⌊m/5⌋ each */
  readonly guesses?: GuessPlan;
  /**
   * The bound that decides `broken`. `'gdp'`: the Gaussian-DP bound (Mahloujifar et al. 2024) — the
   * tighter one, valid for trainings whose trade-off curve is Gaussian, as DP-SGD's is closely; with
   * 1,000 canaries the only one that can refute ε = 8 at δ = 10⁻⁵. `'one-run'`: Steinke et al.'s
   * bound, valid for every (ε, δ)-DP training, but at most 5.8 with 1,000 canaries. Both are reported.
   * @default 'gdp'
   */
  readonly decision?: DpAuditDecision;
}

/** Input of {@link auditCanaryScores}: a run's canary scores and inclusion vector, and the claim. */
export interface CanaryScoresAudit extends DpAuditSettings {
  /** One score per canary, by canary id, higher = more likely included. */
  readonly scores: ArrayLike<number>;
  /** Per canary id, whether the training included it (boolean or 0/1). */
  readonly inclusion: ArrayLike<boolean | number>;
  /** The ε the training claims (its accountant's, at `delta`); `Infinity` for σ = 0. */
  readonly claimedEpsilon: number;
}

/** The verdict of a one-run DP audit ({@link auditCanaryScores}, `auditDpTraining`). */
export interface DpAudit {
  /** True when the deciding lower bound exceeds the claimed ε: the training is not (ε, δ)-DP as claimed (wrong with probability ≤ 1 − confidence). */
  readonly broken: boolean;
  /** The bound that decided. */
  readonly decidedBy: DpAuditDecision;
  /** The deciding bound's ε. */
  readonly empiricalEpsilon: number;
  readonly claimedEpsilon: number;
  readonly delta: number;
  readonly confidence: number;
  /** False when even all-correct guesses could not prove more than the claimed ε: this audit can never flag the claim (more canaries needed). */
  readonly canRefute: boolean;
  /** Both bounds, the guesses (k₊, k₋, m, made, correct) and the largest values these guesses could prove. */
  readonly audit: CanaryAudit;
  /** One paragraph for a log or a report: the verdict, the numbers and every choice. */
  readonly message: string;
}

const fixed = (x: number, digits = 2) => (Number.isFinite(x) ? x.toFixed(digits) : '∞');

/**
 * A one-run DP audit from a run's canary scores: both lower bounds of `auditCanaries` (`@mia/metrics`:
 * Steinke et al.'s (ε, δ) bound and the Gaussian-DP bound, from one fixed set of guesses) compared
 * with the claimed ε. `broken` when the deciding bound (`decision`, default the Gaussian-DP one)
 * exceeds the claim, i.e. the claim is refuted at `confidence`.
 *
 * @example
 * const verdict = auditCanaryScores({ scores, inclusion, claimedEpsilon: 8, delta: 1e-5 });
 * if (verdict.broken) throw new Error(verdict.message);
 * @param input - {@link CanaryScoresAudit}.
 * @returns {@link DpAudit}.
 * @throws InvalidArgumentError on a negative or NaN claimed ε or an unknown decision; MetricsError on bad scores, inclusion, guesses, δ or confidence.
 * @see Steinke, Nasr & Jagielski (2023), arXiv:2305.08846; Mahloujifar, Melis & Chaudhuri (2024), arXiv:2410.22235
 */
export function auditCanaryScores(input: CanaryScoresAudit): DpAudit {
  const fn = 'auditCanaryScores';
  check(typeof input === 'object' && input !== null, fn, 'input', 'an object {scores, inclusion, claimedEpsilon, delta}', input);
  return verdictOf(fn, input.scores, input.inclusion, input.claimedEpsilon, input, 'canaries');
}

/** {@link auditCanaryScores} with the caller's name and a description of the canaries (internal). */
export function verdictOf(
  fn: string,
  scores: ArrayLike<number>,
  inclusion: ArrayLike<boolean | number>,
  claimedEpsilon: number,
  settings: DpAuditSettings,
  what: string,
): DpAudit {
  check(typeof claimedEpsilon === 'number' && claimedEpsilon >= 0, fn, 'claimedEpsilon', 'a number ≥ 0 (Infinity allowed)', claimedEpsilon);
  const decision = settings.decision ?? 'gdp';
  check(decision === 'gdp' || decision === 'one-run', fn, 'decision', "'gdp' or 'one-run'", decision);
  const audit = auditCanaries(scores, inclusion, {
    delta: settings.delta,
    ...(settings.confidence === undefined ? {} : { confidence: settings.confidence }),
    ...(settings.guesses === undefined ? {} : { guesses: settings.guesses }),
  });
  const deciding = decision === 'gdp' ? audit.gdp : audit.oneRun;
  const broken = deciding.epsilon > claimedEpsilon;
  const canRefute = deciding.maxEpsilon > claimedEpsilon;
  const { guesses, gdp, oneRun, confidence, delta } = audit;
  const level = `${Math.round(confidence * 1000) / 10} %`;
  const name = decision === 'gdp' ? `Gaussian-DP bound, μ ≥ ${fixed(gdp.mu, 3)}` : "Steinke et al.'s (ε, δ) bound";
  const other =
    decision === 'gdp'
      ? `(ε, δ) bound of Steinke et al. ε ≥ ${fixed(oneRun.epsilon)}`
      : `Gaussian-DP bound ε ≥ ${fixed(gdp.epsilon)} (μ ≥ ${fixed(gdp.mu, 3)})`;
  const proven = `a one-run audit proves ε ≥ ${fixed(deciding.epsilon)} (${name}) at ${level} confidence`;
  const claim = `the claimed ε = ${fixed(claimedEpsilon)} (δ = ${delta})`;
  const choices =
    `${guesses.canaries} ${what}, ${guesses.included} of them included (each with probability ½); guesses fixed in advance: ` +
    `"in" for the ${guesses.positive} highest scores, "out" for the ${guesses.negative} lowest, ${guesses.correct} of ${guesses.guesses} right` +
    (guesses.made < guesses.guesses ? ' (no guess made: every score is the same)' : '') +
    `; ${other}`;
  const limit = canRefute
    ? ''
    : `; with these guesses the audit cannot prove more than ε = ${fixed(deciding.maxEpsilon)}, so it cannot refute this claim: use more canaries`;
  const message = broken
    ? `broken DP claim: ${proven}, above ${claim}; the training is not DP as claimed. ${choices}`
    : `consistent: ${proven}, within ${claim}. ${choices}${limit}`;
  return { broken, decidedBy: decision, empiricalEpsilon: deciding.epsilon, claimedEpsilon, delta, confidence, canRefute, audit, message };
}
