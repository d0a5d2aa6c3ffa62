import { InvalidArgumentError, describeValue } from '@mia/core';
import type { ReferenceAttack } from '../attacks/attack';
import { liraAttack } from '../attacks/lira-attack';
import { rmiaAttack } from '../attacks/rmia-attack';
import { signedStatistic, type StatisticName } from '../attacks/signed-statistic';
import { concatSignals } from '../signals/concat-signals';
import type { ModelSignals } from '../signals/model-signals';
import { signalsFromLogits } from '../signals/signals-from-logits';
import { signalsFromProbabilities } from '../signals/signals-from-losses';
import { auditScores, type AttackScores, type AuditScoresOptions } from './audit-scores';
import type { AuditReport } from './audit-report';
import { auditSource, looksLikeProbabilities, modelOutputs, predictFunction, type AuditData, type AuditableModel, type PredictFunction } from './model-outputs';

/** Reference models (trained like the target on known subsets of the audit set), or their signals on it. */
export type AuditReferences =
  | { readonly models: readonly AuditableModel[]; readonly keep: readonly ArrayLike<number | boolean>[] }
  | { readonly signals: readonly ModelSignals[]; readonly keep: readonly ArrayLike<number | boolean>[] };

/** What {@link auditModel} audits the model on. */
export interface AuditModelData {
  /** Examples the model was trained on. */
  readonly members: AuditData;
  /** Examples it never saw, from the same distribution. */
  readonly nonMembers: AuditData;
  /** More non-members used as RMIA's population z (not evaluated); needs `references`. */
  readonly population?: AuditData;
  /**
   * Reference models for LiRA and RMIA. The audit set is `members ∪ nonMembers ∪ population` in that
   * order; `keep[k][i]` is 1 when reference model k trained on audit example i.
   */
  readonly references?: AuditReferences;
}

/** Options of {@link auditModel}. */
export interface AuditModelOptions extends AuditScoresOptions {
  /** Metric attacks (threshold on a per-example statistic). @default ['loss', 'modifiedEntropy', 'entropy', 'maxConfidence', 'correctness'] */
  readonly statistics?: readonly StatisticName[];
  /** What the model outputs; `'auto'`: probabilities when every row is in [0, 1] and sums to 1 (±1e-3), else logits. @default 'auto' */
  readonly output?: 'auto' | 'logits' | 'probabilities';
  /** Examples per forward pass. @default 256 */
  readonly batchSize?: number;
}

const DEFAULT_STATISTICS: readonly StatisticName[] = ['loss', 'modifiedEntropy', 'entropy', 'maxConfidence', 'correctness'];

/**
 * Audits a trained model for membership leakage in one call: computes its outputs on members and
 * non-members (batched, eval mode, no tensor left behind), runs the metric attacks, and LiRA and
 * RMIA when reference models or their signals are given, then reports per attack the advantage,
 * AUC and TPR at low FPR with confidence intervals, the empirical ε lower bound, a per-class view,
 * and every member's exposure ({@link auditScores}). Works in Node and in the browser.
 *
 * @param model - A `tf.LayersModel`, a `tf.GraphModel` (anything with `predict(x)` returning one
 *   `[batch, C]` tensor), a `Classifier` of `@mia/core`, or a function `x → logits or probabilities`.
 * @param data - {@link AuditModelData}.
 * @param options - {@link AuditModelOptions}.
 * @returns The {@link AuditReport} (`toJSON()`, `toMarkdown()`, `toHTML()`).
 * @throws InvalidArgumentError on a model or data of the wrong kind, outputs that are not `[batch, C ≥ 2]`,
 *   labels outside `[0, C)`, `population` without `references`, or a bad option.
 * @see docs/protocol.md §3.1 (metric attacks), §3.8 (LiRA), §3.9 (RMIA), §5 (metrics).
 */
export async function auditModel(model: AuditableModel, data: AuditModelData, options: AuditModelOptions = {}): Promise<AuditReport> {
  const fn = 'auditModel';
  if (typeof data !== 'object' || data === null)
    throw new InvalidArgumentError(`${fn}: data must be {members, nonMembers, population?, references?}, got ${describeValue(data)}`);
  const output = options.output ?? 'auto';
  if (!['auto', 'logits', 'probabilities'].includes(output))
    throw new InvalidArgumentError(`${fn}: options.output must be 'auto', 'logits' or 'probabilities', got ${describeValue(output)}`);
  if (data.population !== undefined && data.references === undefined) {
    throw new InvalidArgumentError(`${fn}: data.population is RMIA's population and needs data.references, got a population without references`);
  }
  const sources = [
    auditSource(fn, 'data.members', data.members),
    auditSource(fn, 'data.nonMembers', data.nonMembers),
    ...(data.population === undefined ? [] : [auditSource(fn, 'data.population', data.population)]),
  ];
  const signalsOf = (predict: PredictFunction): ModelSignals[] =>
    sources.map((source) => {
      const { values, numClasses } = modelOutputs(fn, predict, source, options.batchSize ?? 256);
      const probabilities = output === 'probabilities' || (output === 'auto' && looksLikeProbabilities(values, numClasses));
      return probabilities ? signalsFromProbabilities(values, source.labels, numClasses) : signalsFromLogits(values, source.labels, numClasses);
    });
  const [members, nonMembers, population] = signalsOf(predictFunction(fn, model)) as [ModelSignals, ModelSignals, ModelSignals | undefined];
  const attacks: AttackScores[] = (options.statistics ?? DEFAULT_STATISTICS).map((statistic) => ({
    name: statistic,
    memberScores: signedStatistic(members, statistic),
    nonMemberScores: signedStatistic(nonMembers, statistic),
  }));
  if (data.references !== undefined) {
    const target = concatSignals(population === undefined ? [members, nonMembers] : [members, nonMembers, population]);
    attacks.push(
      ...(await referenceAttackScores(fn, data.references, target, members.size, nonMembers.size, (m) => concatSignals(signalsOf(predictFunction(fn, m))))),
    );
  }
  return auditScores(
    { attacks, memberLabels: members.labels, nonMemberLabels: nonMembers.labels, memberLosses: members.loss, numClasses: members.numClasses },
    options,
  );
}

/** LiRA (offline; online when every example has IN and OUT references) and RMIA (≥ 2 references) scores of the members and non-members (internal). */
async function referenceAttackScores(
  fn: string,
  references: AuditReferences,
  target: ModelSignals,
  numMembers: number,
  numNonMembers: number,
  signalsOfModel: (model: AuditableModel) => ModelSignals,
): Promise<AttackScores[]> {
  const given = references as { models?: readonly AuditableModel[]; signals?: readonly ModelSignals[]; keep?: unknown };
  const models = Array.isArray(given.signals) ? given.signals : Array.isArray(given.models) ? given.models.map(signalsOfModel) : undefined;
  if (models === undefined || models.length === 0 || !Array.isArray(given.keep)) {
    throw new InvalidArgumentError(
      `${fn}: data.references must be {models, keep} or {signals, keep} with at least one reference, got ${describeValue(references)}`,
    );
  }
  const refs = { models, keep: given.keep as ArrayLike<number | boolean>[] };
  const rows = refs.keep.map((row, k) => {
    if (row === null || typeof row !== 'object' || row.length !== target.size) {
      throw new InvalidArgumentError(
        `${fn}: data.references.keep[${k}] must have one 0/1 entry per audit example (members, non-members, population: ${target.size}), got ${describeValue(row)}`,
      );
    }
    return row;
  });
  const counts = Array.from({ length: target.size }, (_, i) => rows.reduce((n, row) => n + Number(row[i]), 0));
  const noOut = counts.findIndex((n) => n === models.length);
  if (noOut >= 0) {
    throw new InvalidArgumentError(`${fn}: every audit example needs a reference model that did not train on it (keep 0), got none for example ${noOut}`);
  }
  const attacks: ReferenceAttack[] = [liraAttack({ mode: 'offline' })];
  if (counts.every((n) => n > 0)) attacks.push(liraAttack({ mode: 'online' }));
  if (models.length >= 2) {
    const population =
      target.size > numMembers + numNonMembers
        ? Int32Array.from({ length: target.size - numMembers - numNonMembers }, (_, i) => numMembers + numNonMembers + i)
        : undefined;
    attacks.push(rmiaAttack({ population }));
  }
  const out: AttackScores[] = [];
  for (const attack of attacks) {
    await attack.prepare(refs);
    const scores = attack.score(target);
    out.push({ name: attack.name, memberScores: scores.subarray(0, numMembers), nonMemberScores: scores.subarray(numMembers, numMembers + numNonMembers) });
    attack.dispose();
  }
  return out;
}
