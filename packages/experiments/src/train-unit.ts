import { deriveSeed, predictLogits, subsetData, type LabeledData } from '@mia/core';
import { signalsFromLogits, type SplitSignals } from '@mia/attacks';
import { createModel, deserializeClassifier, serializeClassifier, type ModelClassifier } from '@mia/models';
import type { ArtifactStore } from './artifact-store';
import { toBytes, toFloats } from './float-bytes';
import { contentHash } from './canonical-hash';
import type { DefenseConfig, ExperimentConfig } from './config';
import { copyWeights, getDefense, type DefenseTrainContext, type UnitLogits } from './defense-registry';
import type { PreparedData } from './prepare-data';
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
export function unitKey(config: ExperimentConfig, data: PreparedData, defense: DefenseConfig, role: 'target' | 'shadow'): string {
  return contentHash({
    kind: 'trained-model-1', role, seed: deriveSeed(config.seed, role),
    dataset: { name: data.dataset.name, source: data.dataset.source, size: data.dataset.size },
    partition: data.digest, model: config.model, training: config.training,
    defense: { name: defense.name, params: defense.params }, versions: packageVersions(),
  });
}

/** Signals of a trained unit on its members and non-members. */
export interface UnitSignals { members: SplitSignals['members']; nonMembers: SplitSignals['nonMembers']; cache: 'hit' | 'miss'; seconds: number }


/** Trains (or loads from the cache) one target or shadow model and returns its signals on its members and non-members. */
export async function trainUnit(config: ExperimentConfig, data: PreparedData, defense: DefenseConfig, role: 'target' | 'shadow', store: ArtifactStore, options: TrainUnitOptions): Promise<UnitSignals> {
  const roles = data.partition.roles;
  const memberIdx = roles[`${role}_train`]!;
  const nonMemberIdx = roles[`${role}_test`]!;
  const inferenceIdx = roles[`${role}_inference`] ?? roles.inference;
  const seed = deriveSeed(config.seed, role);
  const key = unitKey(config, data, defense, role);
  const numClasses = data.dataset.numClasses;
  const label = `${defense.label ?? defense.name}/${role}`;
  const cached = await store.read(key);
  if (cached !== undefined) {
    options.onLog?.(`cache hit  ${label} (${key.slice(0, 12)})`);
    const m = cached.files.get('members.logits')!;
    const n = cached.files.get('non-members.logits')!;
    return { members: signalsFromLogits(toFloats(m), Int32Array.from(memberIdx, (i) => data.dataset.y[i]!), numClasses), nonMembers: signalsFromLogits(toFloats(n), Int32Array.from(nonMemberIdx, (i) => data.dataset.y[i]!), numClasses), cache: 'hit', seconds: Number(cached.manifest.meta.seconds ?? 0) };
  }
  options.onLog?.(`training   ${label} (${memberIdx.length} members)`);
  const started = Date.now();
  const adapter = getDefense(defense.name);
  const modelOptions = { ...config.model.options, ...adapter.modelOptions?.(defense.params), numClasses, inputShape: [...data.dataset.inputShape] };
  let initCount = 0;
  const newModel = () => createModel(config.model.name, { ...modelOptions, seed: deriveSeed(seed, 'init', initCount++) });
  let model = createModel(config.model.name, { ...modelOptions, seed: deriveSeed(seed, 'init') });
  const logitsOf = (idx: readonly number[]) => {
    const t = predictLogits(model, data.dataset, { indices: idx });
    const values = t.dataSync() as Float32Array;
    t.dispose();
    return Float32Array.from(values);
  };
  // A cache entry of a trained unit: the model and the logits it releases on its members and non-members.
  const writeUnit = async (entryKey: string, logits: UnitLogits, unitLabel: string, seconds: number) =>
    store.write(entryKey, { 'model.bin': await serializeClassifier(model), 'members.logits': toBytes(logits.members), 'non-members.logits': toBytes(logits.nonMembers) }, { kind: 'trained-model', label: unitLabel, role, seconds, config: config.name });
  try {
    const members = subsetData(data.dataset, memberIdx);
    const inference: LabeledData | undefined = inferenceIdx === undefined ? undefined : subsetData(data.dataset, inferenceIdx);
    const ctx: DefenseTrainContext = {
      model, members, ...(inference ? { inference } : {}), training: config.training, params: defense.params, seed, label,
      ...(options.signal ? { signal: options.signal } : {}),
      createModel: newModel,
      // PAST's phase 1: the same run's unit of the base defense (identical seeds), from the cache or trained and cached here.
      trainBase: async (base) => {
        const baseDefense = { name: base.name, params: base.params };
        const baseKey = unitKey(config, data, baseDefense, role);
        const hit = await store.read(baseKey);
        const bytes = hit?.files.get('model.bin');
        if (bytes !== undefined) {
          const loaded = deserializeClassifier(bytes);
          try { copyWeights(loaded, model); } finally { loaded.dispose(); }
          options.onLog?.(`cache hit  ${base.name}/${role} as the base of ${label} (${baseKey.slice(0, 12)})`);
          return;
        }
        const baseStarted = Date.now();
        const other = await getDefense(base.name).trainModel({ ...ctx, params: base.params, label: `${base.name}/${role} (base of ${label})` });
        if (other !== undefined) {
          try { copyWeights(other, model); } finally { other.dispose(); }
        }
        const baseSeconds = (Date.now() - baseStarted) / 1000;
        await writeUnit(baseKey, { members: logitsOf(memberIdx), nonMembers: logitsOf(nonMemberIdx) }, `${base.name}/${role}`, baseSeconds);
        options.onLog?.(`trained    ${base.name}/${role} as the base of ${label} in ${baseSeconds.toFixed(1)} s (${baseKey.slice(0, 12)})`);
      },
    };
    const replacement = await adapter.trainModel(ctx);
    if (replacement !== undefined) {
      if (!('architecture' in replacement)) {
        replacement.dispose();
        throw new Error(`defense ${defense.name} returned a model that is not from ctx.createModel (@mia/models); the runner cannot cache it`);
      }
      model.dispose();
      model = replacement as ModelClassifier;
    }
    let logits: UnitLogits = { members: logitsOf(memberIdx), nonMembers: logitsOf(nonMemberIdx) };
    if (adapter.perturbLogits !== undefined) logits = { ...(await adapter.perturbLogits({ ...ctx, model }, logits)) };
    const seconds = (Date.now() - started) / 1000;
    const { members: m, nonMembers: n } = logits;
    await writeUnit(key, logits, label, seconds);
    options.onLog?.(`trained    ${label} in ${seconds.toFixed(1)} s (${key.slice(0, 12)})`);
    return { members: signalsFromLogits(m, Int32Array.from(memberIdx, (i) => data.dataset.y[i]!), numClasses), nonMembers: signalsFromLogits(n, Int32Array.from(nonMemberIdx, (i) => data.dataset.y[i]!), numClasses), cache: 'miss', seconds };
  } finally {
    model.dispose();
  }
}
