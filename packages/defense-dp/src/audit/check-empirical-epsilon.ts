import { check } from '@mia/core';
import { empiricalEpsilonLowerBound, type EmpiricalEpsilon, type Scores } from '@mia/metrics';

/** The attack's scores of {@link checkEmpiricalEpsilon}: higher = more likely member. */
export interface MembershipScores {
  /** Scores of the members (e.g. canaries the training included). */
  readonly memberScores: Scores;
  /** Scores of the non-members (canaries it left out). */
  readonly nonMemberScores: Scores;
}

/** Options of {@link checkEmpiricalEpsilon}. */
export interface CheckEmpiricalEpsilonOptions {
  /** The accountant's ε of the model (`epsilonOf`, or `dpSgdPlugin(…).privacy(delta).epsilon`); `Infinity` when σ = 0. */
  readonly accountantEpsilon: number;
  /** The δ of that guarantee, in [0, 1). */
  readonly delta: number;
  /** Confidence level of the lower bound. @default 0.95 */
  readonly confidence?: number;
  /** A threshold fixed beforehand (member iff score ≥ it); without it, the best over every threshold. @default undefined */
  readonly threshold?: number;
}

/** Result of {@link checkEmpiricalEpsilon}. */
export interface EmpiricalEpsilonCheck {
  /** True when the empirical lower bound exceeds the accountant's ε: the training cannot be (ε, δ)-DP as claimed. */
  readonly broken: boolean;
  /** The ε the attack proves at `confidence` (Clopper–Pearson), ≥ 0. */
  readonly empiricalEpsilon: number;
  readonly accountantEpsilon: number;
  readonly delta: number;
  readonly confidence: number;
  /** The bound in full: threshold, TPR and FPR intervals, which inequality gave it. */
  readonly bound: EmpiricalEpsilon;
  /** One sentence for a report or a log. */
  readonly message: string;
}

/**
 * Checks a DP model's accountant against an attack: the lower bound on ε that the attack's scores
 * prove at `confidence` (`empiricalEpsilonLowerBound` of `@mia/metrics`: Clopper–Pearson bounds on
 * TPR and FPR, ε ≥ log((TPR_low − δ) / FPR_high), Jagielski et al. 2020, Nasr et al. 2021) must not
 * exceed the ε the accountant claims. If it does, the implementation (noise, clipping, sampling,
 * batch norm, a data path outside the accounting) or its accounting is broken — or, with probability
 * at most 1 − `confidence`, the bound is wrong. Without `threshold` the bound maximises over every
 * threshold of these same scores, which makes it optimistic; fix the threshold on other data for
 * the stated confidence.
 *
 * The bound assumes the member/non-member outcomes are independent trials: one canary per training
 * run, each in or out at random (Jagielski et al.). Many canaries, each included at random, in one
 * training run is the cheap variant; its canaries share the run, so treat the bound as the strong
 * evidence it is, not an exact 95 % statement — `auditDpTraining` / `auditCanaryScores` run the
 * one-run test with a proven confidence (Steinke, Nasr and Jagielski 2023). Mislabeled or out-of-distribution canaries scored by their loss make the bound
 * tight: a correct DP training cannot separate them, a broken one memorises them.
 *
 * @example
 * const { epsilon } = dp.privacy(1e-5);
 * const result = checkEmpiricalEpsilon({ memberScores, nonMemberScores }, { accountantEpsilon: epsilon, delta: 1e-5 });
 * if (result.broken) throw new Error(result.message);
 * @param scores - the attack's scores of members and non-members, higher = more likely member.
 * @returns the {@link EmpiricalEpsilonCheck}.
 * @throws InvalidArgumentError on a negative or NaN `accountantEpsilon` or `delta` outside [0, 1); MetricsError on empty or NaN scores, a bad confidence or threshold.
 * @see Jagielski, Ullman & Oprea 2020 (arXiv:2006.07709); Nasr et al. 2021 (arXiv:2101.04535); Steinke, Nasr & Jagielski 2023 (arXiv:2305.08846); docs/protocol.md §4.16
 */
export function checkEmpiricalEpsilon(scores: MembershipScores, options: CheckEmpiricalEpsilonOptions): EmpiricalEpsilonCheck {
  const fn = 'checkEmpiricalEpsilon';
  check(typeof scores === 'object' && scores !== null, fn, 'scores', 'an object { memberScores, nonMemberScores }', scores);
  check(typeof options === 'object' && options !== null, fn, 'options', 'an object { accountantEpsilon, delta }', options);
  const { accountantEpsilon, delta } = options;
  check(typeof accountantEpsilon === 'number' && accountantEpsilon >= 0, fn, 'accountantEpsilon', 'a number ≥ 0 (Infinity allowed)', accountantEpsilon);
  check(typeof delta === 'number' && delta >= 0 && delta < 1, fn, 'delta', 'a number in [0, 1)', delta);
  const bound = empiricalEpsilonLowerBound({
    memberScores: scores.memberScores,
    nonMemberScores: scores.nonMemberScores,
    delta,
    ...(options.confidence === undefined ? {} : { confidence: options.confidence }),
    ...(options.threshold === undefined ? {} : { threshold: options.threshold }),
  });
  const broken = bound.epsilon > accountantEpsilon;
  const level = `${Math.round(bound.confidence * 1000) / 10} %`;
  const proven = `the attack proves ε ≥ ${bound.epsilon.toFixed(3)} at ${level} confidence (${bound.numMembers} members, ${bound.numNonMembers} non-members)`;
  const message = broken
    ? `broken DP: ${proven}, above the accountant's ε = ${accountantEpsilon.toFixed(3)} (δ = ${delta}); the training cannot be DP as accounted`
    : `consistent: ${proven}, within the accountant's ε = ${Number.isFinite(accountantEpsilon) ? accountantEpsilon.toFixed(3) : '∞'} (δ = ${delta})`;
  return { broken, empiricalEpsilon: bound.epsilon, accountantEpsilon, delta, confidence: bound.confidence, bound, message };
}
