import { InvalidArgumentError, checkNumberInRange, checkPositiveInteger, describeValue } from '@mia/core';
import { auditAttacksMetrics } from './audit-attack-metrics';
import { AuditReport } from './audit-report';
import { recordExposure, strongestAttack } from './record-exposure';
import { auditValidity, type AuditProvenance } from './audit-validity';
import type { RecordFeatures } from '../doctor/record-features';

/** One attack's scores of the members and non-members (higher = more likely member). */
export interface AttackScores {
  /** Unique attack name. */
  readonly name: string;
  /** Score of each member. */
  readonly memberScores: ArrayLike<number>;
  /** Score of each non-member. */
  readonly nonMemberScores: ArrayLike<number>;
}

/** Input of {@link auditScores}. */
export interface AuditScoresInput {
  /** At least one attack; names must be unique. */
  readonly attacks: readonly AttackScores[];
  /** True labels of the members and of the non-members (for the per-class view). */
  readonly memberLabels: ArrayLike<number>;
  /** True labels of the non-members. */
  readonly nonMemberLabels: ArrayLike<number>;
  /** The target's loss on each member (shown beside the most exposed records). @default NaN */
  readonly memberLosses?: ArrayLike<number>;
  /** Number of classes. @default 1 + the largest label */
  readonly numClasses?: number;
  /**
   * The records' features, members then non-members (`recordFeatures`), for the blind baseline.
   * @default the labels alone
   */
  readonly records?: RecordFeatures;
  /** How the audit was made (shadows, references, selections, training, DP claims), for its validity checks. */
  readonly provenance?: AuditProvenance;
}

/** Options of {@link auditScores} and {@link auditModel}. */
export interface AuditScoresOptions {
  /** FPRs (fractions) at which the TPR is reported. @default [0.01, 0.001] */
  readonly fprs?: readonly number[];
  /** Two-sided confidence level of every interval and of the ε bound. @default 0.95 */
  readonly confidence?: number;
  /** δ of the empirical ε lower bound. @default 0 */
  readonly delta?: number;
  /** Bootstrap resamples of the AUC and advantage intervals. @default 1000 */
  readonly resamples?: number;
  /** Seed of the bootstrap. @default 0 */
  readonly seed?: number;
  /** Number of most exposed records listed in `exposure.top`. @default 10 */
  readonly topRecords?: number;
}

function toFloat64(fn: string, name: string, values: unknown, length?: number): Float64Array {
  if (values === null || typeof values !== 'object' || typeof (values as ArrayLike<unknown>).length !== 'number') {
    throw new InvalidArgumentError(`${fn}: ${name} must be an array of numbers, got ${describeValue(values)}`);
  }
  const out = Float64Array.from(values as ArrayLike<number>);
  if (length !== undefined && out.length !== length) throw new InvalidArgumentError(`${fn}: ${name} must have ${length} entries, got ${out.length}`);
  out.forEach((v, i) => {
    if (Number.isNaN(v))
      throw new InvalidArgumentError(`${fn}: ${name}[${i}] must be a number (not NaN), got ${describeValue((values as ArrayLike<unknown>)[i])}`);
  });
  return out;
}

/**
 * Builds an {@link AuditReport} from attack scores that are already computed (by any framework):
 * per attack the best advantage and AUC with stratified bootstrap intervals, TPR at each FPR with
 * Clopper–Pearson intervals, the empirical ε lower bound and a per-class breakdown; and the
 * exposure of every member to the strongest attack (highest TPR at the lowest FPR); and the audit's
 * validity (`report.validity`): a blind baseline that tells members from non-members by the records
 * alone (their features when `input.records` has them, else their labels) against the attack with
 * the highest AUC, and the findings of the validity checks (`diagnoseAudit`) on `input.provenance`.
 *
 * @param input - {@link AuditScoresInput}.
 * @param options - {@link AuditScoresOptions}.
 * @returns The {@link AuditReport}.
 * @throws InvalidArgumentError on no attack, repeated names, NaN scores, lengths that differ from the labels, or a bad option.
 * @see docs/protocol.md §5 (metrics); Jagielski et al. 2020 (ε lower bound); Carlini et al. 2022 (report TPR at low FPR).
 */
export function auditScores(input: AuditScoresInput, options: AuditScoresOptions = {}): AuditReport {
  const fn = 'auditScores';
  if (typeof input !== 'object' || input === null || !Array.isArray(input.attacks) || input.attacks.length === 0) {
    throw new InvalidArgumentError(
      `${fn}: input.attacks must be a non-empty array of {name, memberScores, nonMemberScores}, got ${describeValue(input?.attacks)}`,
    );
  }
  const memberLabels = Int32Array.from(toFloat64(fn, 'memberLabels', input.memberLabels));
  const nonMemberLabels = Int32Array.from(toFloat64(fn, 'nonMemberLabels', input.nonMemberLabels));
  const names = input.attacks.map((a) => a.name);
  const repeated = names.find((n, i) => names.indexOf(n) !== i);
  if (repeated !== undefined) throw new InvalidArgumentError(`${fn}: attack names must be unique, got ${JSON.stringify(repeated)} twice`);
  const settings = {
    fprs: options.fprs ?? [0.01, 0.001],
    confidence: options.confidence ?? 0.95,
    delta: options.delta ?? 0,
    resamples: options.resamples ?? 1000,
    seed: options.seed ?? 0,
  };
  const topRecords = options.topRecords ?? 10;
  checkPositiveInteger(fn, 'topRecords', topRecords);
  checkPositiveInteger(fn, 'resamples', settings.resamples);
  checkNumberInRange(fn, 'delta', settings.delta, 0, 1);
  if (!(settings.confidence > 0 && settings.confidence < 1))
    throw new InvalidArgumentError(`${fn}: confidence must be a number in (0, 1), got ${describeValue(settings.confidence)}`);
  if (!Number.isSafeInteger(settings.seed)) throw new InvalidArgumentError(`${fn}: seed must be an integer, got ${describeValue(settings.seed)}`);
  const attacks = auditAttacksMetrics(
    input.attacks.map((a, k) => ({
      name: a.name,
      memberScores: toFloat64(fn, `attacks[${k}].memberScores`, a.memberScores, memberLabels.length),
      nonMemberScores: toFloat64(fn, `attacks[${k}].nonMemberScores`, a.nonMemberScores, nonMemberLabels.length),
    })),
    memberLabels,
    nonMemberLabels,
    settings,
  );
  const losses =
    input.memberLosses === undefined ? new Float64Array(memberLabels.length).fill(NaN) : toFloat64(fn, 'memberLosses', input.memberLosses, memberLabels.length);
  const numClasses = input.numClasses ?? 1 + [memberLabels, nonMemberLabels].reduce((m, labels) => labels.reduce((a, b) => Math.max(a, b), m), 0);
  const validity = auditValidity({
    attacks,
    memberLabels,
    nonMemberLabels,
    ...(input.records === undefined ? {} : { records: input.records }),
    ...(input.provenance === undefined ? {} : { provenance: input.provenance }),
    fprs: settings.fprs,
    confidence: settings.confidence,
    seed: settings.seed,
  });
  return new AuditReport({
    confidence: settings.confidence,
    delta: settings.delta,
    numMembers: memberLabels.length,
    numNonMembers: nonMemberLabels.length,
    numClasses,
    memberLabels,
    nonMemberLabels,
    attacks,
    exposure: recordExposure(strongestAttack(attacks), memberLabels, losses, topRecords),
    notes: [
      'AUC, advantage and TPR@FPR take the best threshold on the audited data itself: optimistic for an attacker, the conservative choice for an audit.',
      ...(settings.fprs.some((f) => f > 0 && f < 1 / nonMemberLabels.length)
        ? [`With ${nonMemberLabels.length} non-members, a TPR at an FPR below ${percentOf(1 / nonMemberLabels.length)} is the TPR at FPR 0.`]
        : []),
    ],
    validity,
  });
}

const percentOf = (v: number) => `${+(100 * v).toPrecision(2)} %`;
