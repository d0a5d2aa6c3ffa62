import { InvalidArgumentError } from '@mia/core';
import { summarizeAttack, type RocCurve, type TprAtFprResult } from '@mia/metrics';
import type { ReferenceAttack, ShadowAttack } from '../attacks/attack';
import { concatSignals } from '../signals/concat-signals';
import type { ModelSignals, ReferenceSignals, SplitSignals } from '../signals/model-signals';
import { toMembershipArray } from '../signals/validate-input';

/** Reference-model attacks on one audit set (LiRA, RMIA, Attack-R/P). */
export interface AuditSignals {
  /** The target model's signals on the audit examples. */
  readonly target: ModelSignals;
  /** Whether each audit example is in the target's training set. */
  readonly isMember: ArrayLike<number | boolean>;
  /** The reference models' signals on the same examples, with their membership matrix. */
  readonly references: ReferenceSignals;
  readonly attacks: readonly ReferenceAttack[];
}

/** Input of {@link runAttackSuite}. */
export interface AttackSuiteInput {
  /** The target model's signals on its evaluation members and non-members (shadow attacks). */
  readonly target?: SplitSignals;
  /** Fitting data of the shadow attacks: shadow-model signals (pooled over shadows) or attacker-known data (SEL). */
  readonly shadow?: SplitSignals;
  /** Attacks fitted on `shadow` and evaluated on `target`. */
  readonly attacks?: readonly ShadowAttack[];
  /** Reference-model attacks and their audit set. */
  readonly audit?: AuditSignals;
  /** FPRs (fractions) at which the TPR is reported. @default [0.01, 0.001, 0] */
  readonly fprs?: readonly number[];
}

/** Metrics of one attack on the target (docs/protocol.md §3.0 `AttackResult`, §5). */
export interface AttackResult {
  readonly name: string;
  /** Balanced accuracy `½(TPR + 1 − FPR)` of the attack's own decision rule (shadow-fitted thresholds, NN argmax); the ROC-best value when it has none. */
  readonly accuracy: number;
  /** `TPR − FPR` of the same rule (`2·accuracy − 1`; can be negative). */
  readonly advantage: number;
  /** Whether `accuracy`/`advantage` come from the attack's own decisions (false: best threshold on the target, optimistic). */
  readonly decisionBased: boolean;
  /** ROC-AUC of the scores on the target, ties ½. */
  readonly auc: number;
  /** Best-threshold advantage over the target ROC (optimistic, PMr). */
  readonly bestAdvantage: number;
  /** Best-threshold balanced accuracy. */
  readonly bestAccuracy: number;
  /** TPR at each requested FPR with the achieved FPR and threshold (`≤`, step). */
  readonly tprAtFpr: readonly TprAtFprResult[];
  /** Fitted thresholds, when the attack has them (per class, and global). */
  readonly thresholds?: { readonly perClass: Float64Array; readonly global: number };
  /** Attack-specific extras (e.g. SEL's optimistic accuracy). */
  readonly extra: Record<string, number>;
  /** The exact ROC curve, for plots. */
  readonly roc: RocCurve;
  readonly numMembers: number;
  readonly numNonMembers: number;
  /** The attack's score of every target example (members first, then non-members), for bootstrap uncertainty. */
  readonly scores: Float64Array;
  /** The attack's own member decision (1/0) of every target example in the same order, when it has a decision rule. */
  readonly decisions?: Uint8Array;
}

/** Output of {@link runAttackSuite}. */
export interface AttackSuiteResult {
  readonly attacks: readonly AttackResult[];
  /** The highest `advantage` over all attacks run (the `Adv` of P1, PROTOCOL A31). */
  readonly maxAdvantage: number;
  /** Name of the attack reaching it. */
  readonly maxAdvantageAttack: string;
}

async function evaluateAttack(
  attack: ShadowAttack | ReferenceAttack,
  fit: unknown,
  target: ModelSignals,
  isMember: Uint8Array,
  fprs: readonly number[],
): Promise<AttackResult> {
  await (attack.prepare as (data: unknown) => Promise<void>)(fit);
  const scores = attack.score(target);
  const summary = summarizeAttack(scores, isMember, { fprs });
  let accuracy = summary.balancedAccuracy;
  let decisionBased = false;
  let decided: Uint8Array | undefined;
  if (attack.decide !== undefined) {
    const decisions = attack.decide(target);
    decided = Uint8Array.from(decisions, (d) => (d ? 1 : 0));
    let tp = 0;
    let tn = 0;
    decisions.forEach((d, i) => (isMember[i] === 1 ? (tp += d) : (tn += 1 - d)));
    accuracy = 0.5 * (tp / summary.numMembers + tn / summary.numNonMembers);
    decisionBased = true;
  }
  const fitted = attack as { thresholds?: Float64Array; globalThreshold?: number };
  return {
    name: attack.name,
    accuracy,
    advantage: 2 * accuracy - 1,
    decisionBased,
    auc: summary.auc,
    bestAdvantage: summary.advantage,
    bestAccuracy: summary.balancedAccuracy,
    tprAtFpr: summary.tprAtFpr,
    thresholds: fitted.thresholds instanceof Float64Array ? { perClass: fitted.thresholds, global: fitted.globalThreshold ?? NaN } : undefined,
    extra: attack.report?.(target, isMember) ?? {},
    roc: summary.roc,
    numMembers: summary.numMembers,
    numNonMembers: summary.numNonMembers,
    scores: Float64Array.from(scores),
    ...(decided === undefined ? {} : { decisions: decided }),
  };
}

/**
 * Runs a set of attacks on precomputed signals and reports, per attack, the balanced accuracy and
 * advantage of its own decision rule, the AUC, the best-threshold advantage, TPR at 1 % / 0.1 % /
 * 0 % FPR (with the achieved FPR and threshold), the fitted thresholds and the ROC; plus the max
 * advantage over all attacks (for P1). Signals are computed once by the caller and shared by
 * every attack; attacks are prepared and scored one after another.
 *
 * @param input - {@link AttackSuiteInput}.
 * @returns The {@link AttackSuiteResult}; attack names must be unique.
 * @throws InvalidArgumentError when shadow attacks lack `target`/`shadow`, no attack is given, or names repeat;
 *   MiaError from the attacks and metrics on bad signals (NaN, empty sets, one class).
 * @see docs/protocol.md §3.0, §5; §7 A30–A32.
 */
export async function runAttackSuite(input: AttackSuiteInput): Promise<AttackSuiteResult> {
  const fn = 'runAttackSuite';
  const fprs = input.fprs ?? [0.01, 0.001, 0];
  const attacks = input.attacks ?? [];
  const audited = input.audit?.attacks ?? [];
  if (attacks.length + audited.length === 0) throw new InvalidArgumentError(`${fn}: give at least one attack (attacks or audit.attacks)`);
  const names = [...attacks, ...audited].map((a) => a.name);
  const repeated = names.find((n, i) => names.indexOf(n) !== i);
  if (repeated !== undefined) throw new InvalidArgumentError(`${fn}: attack names must be unique, got ${JSON.stringify(repeated)} twice`);
  const results: AttackResult[] = [];
  if (attacks.length > 0) {
    if (input.target === undefined || input.shadow === undefined) throw new InvalidArgumentError(`${fn}: shadow attacks need both target and shadow signals`);
    const target = concatSignals([input.target.members, input.target.nonMembers]);
    const isMember = Uint8Array.from({ length: target.size }, (_, i) => (i < input.target!.members.size ? 1 : 0));
    for (const attack of attacks) results.push(await evaluateAttack(attack, input.shadow, target, isMember, fprs));
  }
  if (input.audit !== undefined && audited.length > 0) {
    const isMember = toMembershipArray(fn, 'audit.isMember', input.audit.isMember, input.audit.target.size);
    for (const attack of audited) results.push(await evaluateAttack(attack, input.audit.references, input.audit.target, isMember, fprs));
  }
  const best = results.reduce((b, r) => (r.advantage > b.advantage ? r : b), results[0]!);
  return { attacks: results, maxAdvantage: best.advantage, maxAdvantageAttack: best.name };
}
