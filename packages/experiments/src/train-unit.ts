import { deriveSeed, InvalidArgumentError, predictLogits, subsetData } from '@mia/core';
import { signalsFromLogits, type SplitSignals } from '@mia/attacks';
import { createModel, serializeClassifier, type ModelClassifier } from '@mia/models';
import type { ArtifactEntry, ArtifactStore, WriteOutcome } from './artifact-store';
import { toBytes, toFloats } from './float-bytes';
import { contentHash } from './canonical-hash';
import type { DefenseConfig, ExperimentConfig } from './config';
import type { DefenseTrainContext, UnitLogits } from './defense-definition';
import { getDefense } from './defense-registry';
import type { PreparedData } from './prepare-data';
import { trainBaseUnit } from './train-base';
import { underClaim } from './under-claim';
import { packageVersions } from './versions';

/** Options shared by the in-thread and worker-thread paths. */
export interface TrainUnitOptions {
  readonly signal?: AbortSignal;
  readonly onLog?: (line: string) => void;
}

/** Which model of a run: the target or the shadow of one defense. */
export interface TrainUnitSpec {
  readonly defenseIndex: number;
  readonly role: 'target' | 'shadow';
}

/** The content address of a unit: dataset, split, model, training, defense, role seed and code versions. */
export function unitKey(config: ExperimentConfig, data: PreparedData, defense: Pick<DefenseConfig, 'name' | 'params'>, role: 'target' | 'shadow'): string {
  return contentHash({
    kind: 'trained-model-1',
    role,
    seed: deriveSeed(config.seed, role),
    dataset: { name: data.dataset.name, source: data.dataset.source, size: data.dataset.size },
    partition: data.digest,
    model: config.model,
    training: config.training,
    defense: { name: defense.name, params: defense.params },
    versions: packageVersions(),
  });
}

/**
 * Signals of a trained unit on its members and non-members, (target of a partition with a
 * validation slice, docs/protocol.md A11) its top-1 accuracy on that slice, and what the defense
 * recorded while training.
 */
export interface UnitSignals {
  members: SplitSignals['members'];
  nonMembers: SplitSignals['nonMembers'];
  cache: 'hit' | 'miss';
  seconds: number;
  validationAccuracy?: number;
  /** What the defense recorded while training (`DefenseTrainContext.recordMetrics`), if anything. */
  metrics?: Readonly<Record<string, unknown>>;
}

/** What a unit's cache entry holds besides the model and its logits. */
export interface UnitExtras {
  /** The target's own logits on the validation slice (docs/protocol.md A11). */
  readonly validation?: Float32Array | undefined;
  /** What the defense recorded while training. */
  readonly metrics?: Readonly<Record<string, unknown>> | undefined;
}

/** A run's view of one unit: its role's index sets, labels and cache entry writer. @internal */
export interface UnitScope {
  readonly config: ExperimentConfig;
  readonly data: PreparedData;
  readonly role: 'target' | 'shadow';
  readonly store: ArtifactStore;
  readonly memberIdx: readonly number[];
  readonly nonMemberIdx: readonly number[];
  readonly onLog?: ((line: string) => void) | undefined;
  /** The logits `model` releases on the role's members and non-members. */
  logitsOf(model: ModelClassifier): UnitLogits;
  /** The target's validation-slice indices (docs/protocol.md A11), when the partition has one. */
  readonly validationIdx?: readonly number[] | undefined;
  /**
   * Writes a unit's cache entry: the model, the logits it releases, (target with a validation slice)
   * the model's own logits on that slice and what the defense recorded while training
   * (`'existing'`: another process's copy was there first and is kept).
   */
  write(key: string, model: ModelClassifier, logits: UnitLogits, label: string, seconds: number, extra?: UnitExtras): Promise<WriteOutcome>;
  /** The model's logits on {@link validationIdx}, or undefined without a validation slice. */
  validationLogitsOf(model: ModelClassifier): Float32Array | undefined;
}

function unitScope(config: ExperimentConfig, data: PreparedData, role: 'target' | 'shadow', store: ArtifactStore, onLog?: (line: string) => void): UnitScope {
  const roles = data.partition.roles;
  const memberIdx = roles[`${role}_train`]!;
  const nonMemberIdx = roles[`${role}_test`]!;
  const logitsAt = (model: ModelClassifier, indices: readonly number[]) => {
    const t = predictLogits(model, data.dataset, { indices });
    const values = Float32Array.from(t.dataSync() as Float32Array);
    t.dispose();
    return values;
  };
  const validationIdx = role === 'target' ? roles.validation : undefined;
  const validationLogitsOf = (model: ModelClassifier) => (validationIdx === undefined ? undefined : logitsAt(model, validationIdx));
  return {
    config,
    data,
    role,
    store,
    memberIdx,
    nonMemberIdx,
    onLog,
    validationIdx,
    validationLogitsOf,
    logitsOf: (model) => ({ members: logitsAt(model, memberIdx), nonMembers: logitsAt(model, nonMemberIdx) }),
    write: async (key, model, logits, label, seconds, extra = { validation: validationLogitsOf(model) }) => {
      const files: Record<string, Uint8Array> = {
        'model.bin': await serializeClassifier(model),
        'members.logits': toBytes(logits.members),
        'non-members.logits': toBytes(logits.nonMembers),
      };
      if (extra.validation !== undefined) files['validation.logits'] = toBytes(extra.validation);
      const meta: Record<string, unknown> = { kind: 'trained-model', label, role, seconds, config: config.name };
      if (extra.metrics !== undefined) meta.metrics = extra.metrics;
      return store.write(key, files, meta);
    },
  };
}

/** Top-1 accuracy of row-major `logits` (`labels.length` rows) against `labels`. */
export function top1Accuracy(logits: Float32Array, labels: Int32Array, numClasses: number): number {
  if (logits.length !== labels.length * numClasses)
    throw new InvalidArgumentError(`top1Accuracy: logits must have ${labels.length}·${numClasses} values, got ${logits.length}`);
  let correct = 0;
  for (let i = 0; i < labels.length; i++) {
    let best = 0;
    for (let c = 1; c < numClasses; c++) if (logits[i * numClasses + c]! > logits[i * numClasses + best]!) best = c;
    if (best === labels[i]) correct++;
  }
  return correct / Math.max(1, labels.length);
}

function signalsOf(scope: UnitScope, logits: UnitLogits, cache: 'hit' | 'miss', seconds: number, extra: UnitExtras = {}): UnitSignals {
  const { dataset } = scope.data;
  const labels = (idx: readonly number[]) => Int32Array.from(idx, (i) => dataset.y[i]!);
  const signals: UnitSignals = {
    members: signalsFromLogits(logits.members, labels(scope.memberIdx), dataset.numClasses),
    nonMembers: signalsFromLogits(logits.nonMembers, labels(scope.nonMemberIdx), dataset.numClasses),
    cache,
    seconds,
  };
  if (extra.validation !== undefined && scope.validationIdx !== undefined)
    signals.validationAccuracy = top1Accuracy(extra.validation, labels(scope.validationIdx), dataset.numClasses);
  if (extra.metrics !== undefined) signals.metrics = extra.metrics;
  return signals;
}

/** The training metrics stored in a unit's manifest, if any. */
const metricsOf = (entry: ArtifactEntry): Readonly<Record<string, unknown>> | undefined => {
  const m = entry.manifest.meta.metrics;
  return typeof m === 'object' && m !== null ? (m as Record<string, unknown>) : undefined;
};

/**
 * Trains (or loads from the cache) one target or shadow model and returns its signals on its members
 * and non-members. With a store that has claims, two processes never train the same unit: the second
 * waits and reads the first's entry. A corrupted entry is reported (`onLog`) and retrained.
 */
export async function trainUnit(
  config: ExperimentConfig,
  data: PreparedData,
  defense: DefenseConfig,
  role: 'target' | 'shadow',
  store: ArtifactStore,
  options: TrainUnitOptions,
): Promise<UnitSignals> {
  const scope = unitScope(config, data, role, store, options.onLog);
  const key = unitKey(config, data, defense, role);
  const label = `${defense.label ?? defense.name}/${role}`;
  const fromEntry = (entry: ArtifactEntry, how: string): UnitSignals => {
    options.onLog?.(`cache hit  ${label} (${key.slice(0, 12)}${how})`);
    const logits = { members: toFloats(entry.files.get('members.logits')!), nonMembers: toFloats(entry.files.get('non-members.logits')!) };
    const validation = entry.files.get('validation.logits');
    return signalsOf(scope, logits, 'hit', Number(entry.manifest.meta.seconds ?? 0), {
      validation: validation === undefined ? undefined : toFloats(validation),
      metrics: metricsOf(entry),
    });
  };
  const cached = await store.read(key, {
    onCorrupted: (problems) => options.onLog?.(`corrupted  ${label} (${key.slice(0, 12)}): ${problems.join('; ')}; retraining it`),
  });
  if (cached !== undefined) return fromEntry(cached, '');
  const load = async () => {
    const entry = await store.read(key);
    return entry === undefined ? undefined : fromEntry(entry, ', trained by another process');
  };
  return underClaim(store, key, label, options, load, () => trainAndCache(scope, defense, key, label, options, fromEntry));
}

/** Trains a unit that is not in the cache and writes its entry (or, when another process wrote it first, reads that). */
async function trainAndCache(
  scope: UnitScope,
  defense: DefenseConfig,
  key: string,
  label: string,
  options: TrainUnitOptions,
  fromEntry: (entry: ArtifactEntry, how: string) => UnitSignals,
): Promise<UnitSignals> {
  const { config, data, role, store } = scope;
  const seed = deriveSeed(config.seed, role);
  options.onLog?.(`training   ${label} (${scope.memberIdx.length} members)`);
  const started = Date.now();
  const definition = getDefense(defense.name);
  const defenseOptions = definition.schema.parse(defense.params, `defense ${defense.name}`);
  const modelOptions = {
    ...config.model.options,
    ...definition.modelOptions?.(defenseOptions),
    numClasses: data.dataset.numClasses,
    inputShape: [...data.dataset.inputShape],
  };
  let initCount = 0;
  let metrics: Record<string, unknown> | undefined;
  let model = createModel(config.model.name, { ...modelOptions, seed: deriveSeed(seed, 'init') });
  try {
    const inferenceIdx = data.partition.roles[`${role}_inference`] ?? data.partition.roles.inference;
    const ctx: DefenseTrainContext<unknown> = {
      model,
      members: subsetData(data.dataset, scope.memberIdx),
      inference: inferenceIdx === undefined ? undefined : subsetData(data.dataset, inferenceIdx),
      training: config.training,
      options: defenseOptions,
      seed,
      label,
      signal: options.signal,
      createModel: () => createModel(config.model.name, { ...modelOptions, seed: deriveSeed(seed, 'init', initCount++) }),
      trainBase: (base) => trainBaseUnit(scope, ctx, base),
      log: (line) => options.onLog?.(`${label}: ${line}`),
      recordMetrics: (m) => {
        metrics = { ...metrics, ...m };
      },
    };
    const replacement = await definition.train(ctx);
    if (replacement !== undefined) {
      if (!('architecture' in replacement)) {
        replacement.dispose();
        throw new Error(`defense ${defense.name} returned a model that is not from ctx.createModel (@mia/models); the runner cannot cache it`);
      }
      model.dispose();
      model = replacement as ModelClassifier;
    }
    let logits = scope.logitsOf(model);
    if (definition.perturbLogits !== undefined) logits = await definition.perturbLogits({ ...ctx, model }, logits);
    const seconds = (Date.now() - started) / 1000;
    const extra: UnitExtras = { validation: scope.validationLogitsOf(model), metrics };
    if ((await scope.write(key, model, logits, label, seconds, extra)) === 'existing') {
      // Another process published this unit first (a store without claims): its copy is kept; use it.
      const winner = await store.read(key);
      if (winner !== undefined) return fromEntry(winner, ', published first by another process; this copy discarded');
    }
    options.onLog?.(`trained    ${label} in ${seconds.toFixed(1)} s (${key.slice(0, 12)})`);
    return signalsOf(scope, logits, 'miss', seconds, extra);
  } finally {
    model.dispose();
  }
}
