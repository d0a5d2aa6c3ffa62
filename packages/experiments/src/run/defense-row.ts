import { deriveSeed } from '@mia/core';
import type { AttackResult } from '@mia/attacks';
import { bootstrapTprAtFpr, empiricalEpsilonLowerBound, lossGap, lossVariance, p1Score } from '@mia/metrics';
import type { DefenseConfig, ExperimentConfig } from '../schema/run-schema';
import { lossHistogram } from './score-histogram';
import type { AttackRow, DefenseRow, EmpiricalEpsilonRow, RowPrivacy } from './results';
import { rowUncertainty, type RowUncertaintyInput } from './row-uncertainty';
import type { UnitSignals } from '../train/unit-scope';

const accuracyOf = (s: { correct?: Uint8Array; size: number }) => (s.correct ?? new Uint8Array()).reduce((a, b) => a + b, 0) / Math.max(1, s.size);

/** Samples an ROC down to at most `max` vertices for plotting (keeps the first and last). */
function thinRoc(fpr: ArrayLike<number>, tpr: ArrayLike<number>, max = 400): { fpr: number[]; tpr: number[] } {
  const step = Math.max(1, Math.ceil(fpr.length / max));
  const keep = Array.from({ length: fpr.length }, (_, i) => i).filter((i) => i % step === 0 || i === fpr.length - 1);
  return { fpr: keep.map((i) => fpr[i]!), tpr: keep.map((i) => tpr[i]!) };
}

/** The accountant's guarantee a defense recorded for the target (`privacy` metric), when it is well-formed. */
export function privacyOf(metrics: Readonly<Record<string, unknown>> | undefined): RowPrivacy | undefined {
  const p = metrics?.privacy as Partial<RowPrivacy> | undefined;
  if (typeof p !== 'object' || p === null || typeof p.delta !== 'number' || (typeof p.epsilon !== 'number' && p.epsilon !== null)) return undefined;
  return p as RowPrivacy;
}

/** Confidence level of the rows' empirical ε bounds. */
export const EMPIRICAL_EPSILON_CONFIDENCE = 0.95;

/** The ε lower bound an attack's scores (members first) prove at δ. */
function boundOf(a: AttackResult, delta: number) {
  return empiricalEpsilonLowerBound({
    memberScores: a.scores.subarray(0, a.numMembers),
    nonMemberScores: a.scores.subarray(a.numMembers),
    delta,
    confidence: EMPIRICAL_EPSILON_CONFIDENCE,
  });
}

/** Resamples of the TPR@FPR interval. */
export const TPR_INTERVAL_RESAMPLES = 200;

/** The FPR whose TPR gets a confidence interval: 0.1 %, where the LiRA and RMIA papers compare attacks. */
export const TPR_INTERVAL_FPR = 0.001;

/**
 * A 95 % percentile bootstrap interval of an attack's TPR at `fpr` (stratified: members and
 * non-members resampled separately, the threshold re-chosen on each resample), seeded.
 */
function tprInterval(a: AttackResult, fpr: number, seed: number): { tprLow: number; tprHigh: number } {
  const isMember = new Uint8Array(a.numMembers + a.numNonMembers).fill(1, 0, a.numMembers);
  const ci = bootstrapTprAtFpr(a.scores, isMember, fpr, { resamples: TPR_INTERVAL_RESAMPLES, seed });
  return { tprLow: ci.lower, tprHigh: ci.upper };
}

/** The ε lower bound of a row from its best attack, beside the accountant's ε when the row has one. */
function empiricalEpsilonOf(best: AttackResult, bound: ReturnType<typeof boundOf>, delta: number, privacy: RowPrivacy | undefined): EmpiricalEpsilonRow {
  return {
    epsilon: bound.epsilon,
    attack: best.name,
    delta,
    confidence: bound.confidence,
    tprLow: bound.tpr.lower,
    fprHigh: bound.fpr.upper,
    ...(privacy === undefined ? {} : { exceedsAccountant: privacy.epsilon !== null && bound.epsilon > privacy.epsilon }),
  };
}

/** One attack's row: its scores, TPR at each FPR (with an interval at {@link TPR_INTERVAL_FPR}), a thinned ROC and its ε bound. */
function attackRowOf(config: ExperimentConfig, a: AttackResult, epsilonLowerBound: number): AttackRow {
  return {
    attack: a.name,
    accuracy: a.accuracy,
    advantage: a.advantage,
    auc: a.auc,
    tprAtFpr: a.tprAtFpr.map((t) => ({
      fpr: t.fpr,
      tpr: t.tpr,
      achievedFpr: t.achievedFpr,
      ...(t.fpr === TPR_INTERVAL_FPR ? tprInterval(a, t.fpr, deriveSeed(config.seed, 'tpr-ci', a.name)) : {}),
    })),
    roc: thinRoc(a.roc.fpr, a.roc.tpr),
    epsilonLowerBound,
  };
}

/**
 * One defense's row of a run's results: utility, loss gap and variance, every attack's numbers, the
 * highest advantage, P1 (docs/protocol.md §5) and their bootstrap standard errors (§5.1), from the
 * target's (and shadow's) signals and the attack results.
 */
export function defenseRow(
  config: ExperimentConfig,
  defense: DefenseConfig,
  target: UnitSignals,
  shadow: UnitSignals | undefined,
  results: readonly AttackResult[],
): DefenseRow {
  const best = results.length === 0 ? undefined : results.reduce((a, b) => (b.advantage > a.advantage ? b : a));
  const privacy = privacyOf(target.metrics);
  const delta = privacy?.delta ?? 0;
  const bounds = results.map((a) => boundOf(a, delta));
  const empiricalEpsilon = best === undefined ? undefined : empiricalEpsilonOf(best, bounds[results.indexOf(best)]!, delta, privacy);
  const attackRows = results.map((a, i) => attackRowOf(config, a, bounds[i]!.epsilon));
  const testAccuracy = accuracyOf(target.nonMembers);
  const maxAdvantage = best === undefined ? 0 : Math.max(0, best.advantage);
  const se = rowUncertainty({
    ...rowBootstrapInput(target, results),
    seed: deriveSeed(config.seed, 'bootstrap', defense.label ?? defense.name),
  });
  return {
    defense: defense.name,
    label: defense.label ?? defense.name,
    params: defense.params,
    trainAccuracy: accuracyOf(target.members),
    testAccuracy,
    validationAccuracy: target.validationAccuracy,
    lossGap: lossGap(target.members.loss, target.nonMembers.loss),
    lossVariance: lossVariance(target.members.loss),
    attacks: attackRows,
    maxAdvantage,
    p1: p1Score(testAccuracy, maxAdvantage),
    ...(privacy === undefined ? {} : { privacy }),
    ...(empiricalEpsilon === undefined ? {} : { empiricalEpsilon }),
    se,
    lossHistogram: lossHistogram(target.members.loss, target.nonMembers.loss),
    cache: { target: target.cache, shadow: shadow?.cache ?? 'none' },
    trainSeconds: target.seconds + (shadow?.seconds ?? 0),
    trainingMetrics: target.metrics === undefined && shadow?.metrics === undefined ? undefined : { target: target.metrics, shadow: shadow?.metrics },
  };
}

/**
 * What the bootstrap of a row resamples (docs/protocol.md §5.1): the target's per-example correctness
 * and loss on its members and non-members, and every attack's scores (and decisions when it has a
 * decision rule); also the input of the run's paired bootstrap (§5.2).
 */
export function rowBootstrapInput(target: UnitSignals, results: readonly AttackResult[]): Omit<RowUncertaintyInput, 'seed' | 'resamples'> {
  const best = results.length === 0 ? undefined : results.reduce((a, b) => (b.advantage > a.advantage ? b : a));
  return {
    membersCorrect: target.members.correct ?? new Uint8Array(target.members.size),
    nonMembersCorrect: target.nonMembers.correct ?? new Uint8Array(target.nonMembers.size),
    membersLoss: target.members.loss,
    nonMembersLoss: target.nonMembers.loss,
    attacks: results.map((a) =>
      a.decisionBased && a.decisions !== undefined ? { name: a.name, scores: a.scores, decisions: a.decisions } : { name: a.name, scores: a.scores },
    ),
    best: best?.name ?? '',
  };
}
