import { deriveSeed, predictLogits, subsetData, type LabeledData } from '@mia/core';
import { signalsFromLogits, type SplitSignals } from '@mia/attacks';
import { createModel, serializeClassifier } from '@mia/models';
import type { ArtifactStore } from './artifact-store';
import { contentHash } from './canonical-hash';
import type { DefenseConfig, ExperimentConfig } from './config';
import { getDefense } from './defense-registry';
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

const toBytes = (a: Float32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
const toFloats = (b: Uint8Array) => new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));

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
  const model = createModel(config.model.name, { ...config.model.options, numClasses, inputShape: [...data.dataset.inputShape], seed: deriveSeed(seed, 'init') });
  try {
    const members = subsetData(data.dataset, memberIdx);
    const inference: LabeledData | undefined = inferenceIdx === undefined ? undefined : subsetData(data.dataset, inferenceIdx);
    await getDefense(defense.name).trainModel({ model, members, ...(inference ? { inference } : {}), training: config.training, params: defense.params, seed, label, ...(options.signal ? { signal: options.signal } : {}) });
    const seconds = (Date.now() - started) / 1000;
    const logitsOf = (idx: readonly number[]) => {
      const t = predictLogits(model, data.dataset, { indices: idx });
      const values = t.dataSync() as Float32Array;
      t.dispose();
      return Float32Array.from(values);
    };
    const m = logitsOf(memberIdx);
    const n = logitsOf(nonMemberIdx);
    await store.write(key, { 'model.bin': await serializeClassifier(model), 'members.logits': toBytes(m), 'non-members.logits': toBytes(n) }, { kind: 'trained-model', label, role, seconds, config: config.name });
    options.onLog?.(`trained    ${label} in ${seconds.toFixed(1)} s (${key.slice(0, 12)})`);
    return { members: signalsFromLogits(m, Int32Array.from(memberIdx, (i) => data.dataset.y[i]!), numClasses), nonMembers: signalsFromLogits(n, Int32Array.from(nonMemberIdx, (i) => data.dataset.y[i]!), numClasses), cache: 'miss', seconds };
  } finally {
    model.dispose();
  }
}

