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
import type { AuditProvenance } from './audit-validity';
import type { ReferenceAttackUse, ReferencesDescription } from '../doctor/audit-description';
import { joinFeatures, provenanceOf, recordReader } from './audit-records';
import {
  auditSource,
  looksLikeProbabilities,
  modelOutputs,
  predictFunction,
  type AuditData,
  type AuditableModel,
  type AuditSource,
  type PredictFunction,
} from './model-outputs';

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
  /**
   * How the audit was made, for its validity checks (`report.validity`): the records the shadow
   * models, the reference models (`references.trainedOn`) or any threshold, checkpoint or setting
   * (`selections`) were trained or chosen on, as dataset indices and/or content hashes
   * (`contentHashes`); the target's and the other models' training settings; DP claims. The
   * members' and non-members' content hashes are computed here; give their `ids` to check overlaps
   * by index too. The reference attacks and keep masks of `references` are filled in.
   */
  readonly provenance?: AuditProvenance;
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
 * and every member's exposure ({@link auditScores}), and whether the audit is valid
 * (`report.validity`): a blind baseline on the records' features and labels (never the model;
 * `recordFeatures`) against the best attack, and the validity findings of `data.provenance`. Works
 * in Node and in the browser.
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
  const batchSize = options.batchSize ?? 256;
  // The target's pass over the data also reads the records for the validity checks (hashes, baseline features).
  const readers = sources.map((source) => recordReader(source));
  let readingRecords = true;
  const signalsOf = (predict: PredictFunction): ModelSignals[] =>
    sources.map((source, k) => {
      const { values, numClasses } = modelOutputs(fn, predict, source, batchSize, readingRecords ? readers[k]!.visit : undefined);
      const probabilities = output === 'probabilities' || (output === 'auto' && looksLikeProbabilities(values, numClasses));
      return probabilities ? signalsFromProbabilities(values, source.labels, numClasses) : signalsFromLogits(values, source.labels, numClasses);
    });
  const [members, nonMembers, population] = signalsOf(predictFunction(fn, model)) as [ModelSignals, ModelSignals, ModelSignals | undefined];
  readingRecords = false;
  const attacks: AttackScores[] = (options.statistics ?? DEFAULT_STATISTICS).map((statistic) => ({
    name: statistic,
    memberScores: signedStatistic(members, statistic),
    nonMemberScores: signedStatistic(nonMembers, statistic),
  }));
  let used: ReferencesDescription | undefined;
  if (data.references !== undefined) {
    const target = concatSignals(population === undefined ? [members, nonMembers] : [members, nonMembers, population]);
    const scored = await referenceAttackScores(fn, data.references, target, members.size, nonMembers.size, (m) =>
      concatSignals(signalsOf(predictFunction(fn, m))),
    );
    attacks.push(...scored.attacks);
    used = { keep: scored.keep, attacks: scored.uses };
  }
  const read = readers.map((reader) => reader.result());
  const records = joinFeatures(read[0]!.features, read[1]!.features);
  return auditScores(
    {
      attacks,
      memberLabels: members.labels,
      nonMemberLabels: nonMembers.labels,
      memberLosses: members.loss,
      numClasses: members.numClasses,
      records,
      provenance: provenanceOf(
        data.provenance,
        read.map((r) => r.hashes),
        used,
      ),
    },
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
): Promise<{ attacks: AttackScores[]; keep: ArrayLike<number | boolean>[]; uses: ReferenceAttackUse[] }> {
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
  const uses: ReferenceAttackUse[] = [{ name: 'lira-offline', method: 'lira', mode: 'offline', fixVariance: true }];
  if (counts.every((n) => n > 0)) {
    attacks.push(liraAttack({ mode: 'online' }));
    uses.push({ name: 'lira-online', method: 'lira', mode: 'online', fixVariance: true });
  }
  if (models.length >= 2) {
    uses.push({ name: 'rmia', method: 'rmia', mode: 'offline' });
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
  return { attacks: out, keep: rows, uses };
}
