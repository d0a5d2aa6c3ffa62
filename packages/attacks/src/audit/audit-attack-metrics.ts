import {
  bootstrapAucAndAdvantageOfEach,
  clopperPearson,
  empiricalEpsilonLowerBound,
  summarizeAttack,
  type BootstrapInterval,
  type ConfidenceInterval,
  type EmpiricalEpsilon,
} from '@mia/metrics';

/** TPR at one target FPR, with its Clopper–Pearson interval (the vertex's threshold is chosen on the same data). */
export interface AuditTprAtFpr {
  /** The target FPR (a fraction). */
  readonly fpr: number;
  /** The FPR of the chosen ROC vertex, ≤ `fpr`. */
  readonly achievedFpr: number;
  /** Predict member iff `score ≥ threshold`. */
  readonly threshold: number;
  /** The TPR there and its two-sided Clopper–Pearson interval. */
  readonly tpr: ConfidenceInterval;
}

/** One class's view of an attack (examples of that true label only). */
export interface AuditClassMetrics {
  /** The true label. */
  readonly label: number;
  /** Members of this class. */
  readonly numMembers: number;
  /** Non-members of this class. */
  readonly numNonMembers: number;
  /** AUC on this class (NaN when the class lacks members or non-members). */
  readonly auc: number;
  /** Best-threshold advantage on this class (NaN when the class lacks members or non-members). */
  readonly advantage: number;
}

/** Everything {@link auditModel} measures of one attack. */
export interface AuditAttackResult {
  /** Attack name (`loss`, `lira-online`, …). */
  readonly name: string;
  /** ROC-AUC (ties ½) with a stratified percentile bootstrap interval. */
  readonly auc: ConfidenceInterval;
  /** Best-threshold advantage `max(TPR − FPR)` with a stratified percentile bootstrap interval (threshold re-chosen per resample). */
  readonly advantage: ConfidenceInterval;
  /** TPR at each requested FPR. */
  readonly tprAtFpr: readonly AuditTprAtFpr[];
  /** Empirical ε lower bound of (ε, δ)-DP this attack proves at the report's confidence. */
  readonly epsilon: EmpiricalEpsilon;
  /** The attack on each class's examples alone. */
  readonly perClass: readonly AuditClassMetrics[];
  /** The attack's score of every member and every non-member, in the order given (higher = more likely member). */
  readonly memberScores: Float64Array;
  /** The attack's score of every non-member, in the order given. */
  readonly nonMemberScores: Float64Array;
}

/** Settings of {@link auditAttacksMetrics} (internal). */
export interface AuditMetricSettings {
  /** Target FPRs. */
  readonly fprs: readonly number[];
  /** Confidence level. */
  readonly confidence: number;
  /** δ of the ε bound. */
  readonly delta: number;
  /** Bootstrap resamples. */
  readonly resamples: number;
  /** Bootstrap seed. */
  readonly seed: number;
}

const joined = (a: Float64Array, b: Float64Array) => {
  const scores = new Float64Array(a.length + b.length);
  scores.set(a);
  scores.set(b, a.length);
  return { scores, isMember: Uint8Array.from(scores, (_, i) => (i < a.length ? 1 : 0)) };
};

/**
 * Metrics of each attack's scores on the same members and non-members (internal): per attack, AUC
 * and best advantage with bootstrap intervals (every attack on the same resample draws, each equal
 * to its own bootstrap with the same seed), TPR at each FPR with Clopper–Pearson intervals, the
 * empirical ε, and per class.
 */
export function auditAttacksMetrics(
  attacks: ReadonlyArray<{ readonly name: string; readonly memberScores: Float64Array; readonly nonMemberScores: Float64Array }>,
  memberLabels: Int32Array,
  nonMemberLabels: Int32Array,
  settings: AuditMetricSettings,
): AuditAttackResult[] {
  const { confidence, resamples, seed } = settings;
  const joint = attacks.map((a) => joined(a.memberScores, a.nonMemberScores));
  const isMember = joint[0]?.isMember ?? new Uint8Array();
  const intervals = bootstrapAucAndAdvantageOfEach(
    joint.map((j) => j.scores),
    isMember,
    { confidence, resamples, seed },
  );
  return attacks.map((a, k) => auditAttackMetrics(a.name, a.memberScores, a.nonMemberScores, memberLabels, nonMemberLabels, settings, intervals[k]!));
}

/** Metrics of one attack's scores, given its AUC and advantage bootstrap intervals (internal). */
function auditAttackMetrics(
  name: string,
  memberScores: Float64Array,
  nonMemberScores: Float64Array,
  memberLabels: Int32Array,
  nonMemberLabels: Int32Array,
  settings: AuditMetricSettings,
  intervals: { readonly auc: BootstrapInterval; readonly advantage: BootstrapInterval },
): AuditAttackResult {
  const { scores, isMember } = joined(memberScores, nonMemberScores);
  const { confidence } = settings;
  const summary = summarizeAttack(scores, isMember, { fprs: settings.fprs });
  const { auc, advantage } = intervals;
  return {
    name,
    auc: { estimate: auc.estimate, lower: auc.lower, upper: auc.upper, confidence },
    advantage: { estimate: advantage.estimate, lower: advantage.lower, upper: advantage.upper, confidence },
    tprAtFpr: summary.tprAtFpr.map((t) => ({
      fpr: t.fpr,
      achievedFpr: t.achievedFpr,
      threshold: t.threshold,
      tpr: clopperPearson(t.truePositives, t.numMembers, { confidence }),
    })),
    epsilon: empiricalEpsilonLowerBound({ memberScores, nonMemberScores, delta: settings.delta, confidence }),
    perClass: perClass(memberScores, nonMemberScores, memberLabels, nonMemberLabels),
    memberScores,
    nonMemberScores,
  };
}

function perClass(memberScores: Float64Array, nonMemberScores: Float64Array, memberLabels: Int32Array, nonMemberLabels: Int32Array): AuditClassMetrics[] {
  const labels = [...new Set([...memberLabels, ...nonMemberLabels])].sort((a, b) => a - b);
  return labels.map((label) => {
    const m = memberScores.filter((_, i) => memberLabels[i] === label);
    const n = nonMemberScores.filter((_, i) => nonMemberLabels[i] === label);
    if (m.length === 0 || n.length === 0) return { label, numMembers: m.length, numNonMembers: n.length, auc: NaN, advantage: NaN };
    const { scores, isMember } = joined(m, n);
    const s = summarizeAttack(scores, isMember, { fprs: [] });
    return { label, numMembers: m.length, numNonMembers: n.length, auc: s.auc, advantage: s.advantage };
  });
}
