import * as tf from '@tensorflow/tfjs-core';
import { deriveSeed, predictLogits, subsetData, type LabeledData } from '@mia/core';
import { runAttackSuite, signalsFromLogits, type SplitSignals } from '@mia/attacks';
import { lossGap, lossVariance, p1Score } from '@mia/metrics';
import { createModel, deserializeClassifier, serializeClassifier } from '@mia/models';
import { DirectoryArtifactStore, type ArtifactStore } from './artifact-store';
import { createAttacks } from './attack-registry';
import { contentHash } from './canonical-hash';
import type { DefenseConfig, ExperimentConfig } from './config';
import { getDefense } from './defense-registry';
import { sharedHistogram } from './histogram';
import { prepareData, type PreparedData } from './prepare-data';
import type { AttackRow, DefenseRow, ExperimentResults } from './results';
import { packageVersions } from './versions';

/** Options of {@link runExperiment}. */
export interface RunExperimentOptions {
  /** Where trained models and their signals are cached. @default `$MIA_CACHE_DIR/models` or `~/.cache/mia/models` */
  readonly store?: ArtifactStore;
  readonly dataDir?: string;
  readonly signal?: AbortSignal;
  /** One line per step (cache hits, training, attacks). */
  readonly onLog?: (line: string) => void;
}

interface UnitSignals { members: SplitSignals['members']; nonMembers: SplitSignals['nonMembers']; cache: 'hit' | 'miss'; seconds: number }

const toBytes = (a: Float32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
const toFloats = (b: Uint8Array) => new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));

function defaultStore(): ArtifactStore {
  const base = process.env.MIA_CACHE_DIR ?? `${process.env.HOME ?? '.'}/.cache/mia`;
  return new DirectoryArtifactStore(`${base}/models`);
}

/** Trains (or loads from the cache) one target or shadow model and returns its signals on its members and non-members. */
async function trainUnit(config: ExperimentConfig, data: PreparedData, defense: DefenseConfig, role: 'target' | 'shadow', store: ArtifactStore, options: RunExperimentOptions): Promise<UnitSignals> {
  const roles = data.partition.roles;
  const memberIdx = roles[`${role}_train`]!;
  const nonMemberIdx = roles[`${role}_test`]!;
  const inferenceIdx = roles[`${role}_inference`] ?? roles.inference;
  const seed = deriveSeed(config.seed, role);
  const key = contentHash({
    kind: 'trained-model-1', role, seed,
    dataset: { name: data.dataset.name, source: data.dataset.source, size: data.dataset.size },
    partition: data.digest, model: config.model, training: config.training,
    defense: { name: defense.name, params: defense.params }, versions: packageVersions(),
  });
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

const accuracyOf = (s: { correct?: Uint8Array; size: number }) => (s.correct ?? new Uint8Array()).reduce((a, b) => a + b, 0) / Math.max(1, s.size);

/** Samples an ROC down to at most `max` vertices for plotting (keeps the first and last). */
function thinRoc(fpr: ArrayLike<number>, tpr: ArrayLike<number>, max = 400): { fpr: number[]; tpr: number[] } {
  const step = Math.max(1, Math.ceil(fpr.length / max));
  const keep = Array.from({ length: fpr.length }, (_, i) => i).filter((i) => i % step === 0 || i === fpr.length - 1);
  return { fpr: keep.map((i) => fpr[i]!), tpr: keep.map((i) => tpr[i]!) };
}

/**
 * Runs one experiment: for every defense, trains the target and an adaptive shadow (same defense,
 * PROTOCOL.md §3.7) or loads them from the content-addressed cache, computes their signals, runs the
 * attack suite, and measures utility, loss gap, loss variance and P1 (PROTOCOL.md §5).
 */
export async function runExperiment(config: ExperimentConfig, options: RunExperimentOptions = {}): Promise<ExperimentResults> {
  const started = Date.now();
  const store = options.store ?? defaultStore();
  // Fail on unknown names before any data is loaded or model trained.
  for (const defense of config.defenses) getDefense(defense.name);
  createAttacks(config.attacks, { seed: 0 });
  const data = await prepareData(config, options.dataDir === undefined ? {} : { dataDir: options.dataDir });
  const rows: DefenseRow[] = [];
  for (const defense of config.defenses) {
    const target = await trainUnit(config, data, defense, 'target', store, options);
    const shadow = await trainUnit(config, data, defense, 'shadow', store, options);
    const attacks = createAttacks(config.attacks, { seed: deriveSeed(config.seed, 'attack'), ...(config.scale === 'smoke' ? { nnEpochs: 5 } : {}) });
    const suite = await runAttackSuite({ target: { members: target.members, nonMembers: target.nonMembers }, shadow: { members: shadow.members, nonMembers: shadow.nonMembers }, attacks }).finally(() => {
      for (const a of attacks) a.dispose?.();
    });
    const attackRows: AttackRow[] = suite.attacks.map((a) => ({
      attack: a.name, accuracy: a.accuracy, advantage: a.advantage, auc: a.auc,
      tprAtFpr: a.tprAtFpr.map((t) => ({ fpr: t.fpr, tpr: t.tpr, achievedFpr: t.achievedFpr })),
      roc: thinRoc(a.roc.fpr, a.roc.tpr),
    }));
    const testAccuracy = accuracyOf(target.nonMembers);
    const maxAdvantage = Math.max(0, suite.maxAdvantage);
    rows.push({
      defense: defense.name, label: defense.label ?? defense.name, params: defense.params,
      trainAccuracy: accuracyOf(target.members), testAccuracy,
      lossGap: lossGap(target.members.loss, target.nonMembers.loss), lossVariance: lossVariance(target.members.loss),
      attacks: attackRows, maxAdvantage, p1: p1Score(testAccuracy, maxAdvantage),
      lossHistogram: sharedHistogram(target.members.loss, target.nonMembers.loss),
      cache: { target: target.cache, shadow: shadow.cache }, trainSeconds: target.seconds + shadow.seconds,
    });
    options.onLog?.(`attacked   ${defense.label ?? defense.name}: test acc ${(100 * testAccuracy).toFixed(1)}%, max advantage ${(100 * maxAdvantage).toFixed(1)}% (${suite.maxAdvantageAttack})`);
  }
  const notes: string[] = [];
  if (data.dataset.source === 'stand-in') notes.push(`${data.dataset.name} is a synthetic stand-in (${data.dataset.description}); numbers are not comparable to the paper's real-data values.`);
  if (config.scale !== 'paper') notes.push(`Reduced scale '${config.scale}': fewer examples, epochs and/or a smaller model than the paper; compare trends, not values.`);
  return {
    format: 'mia-results-1', config,
    dataset: { name: data.dataset.name, source: data.dataset.source, description: data.dataset.description, size: data.dataset.size },
    partition: { preset: data.partition.preset, sizes: Object.fromEntries(Object.entries(data.partition.roles).map(([k, v]) => [k, v.length])), digest: data.digest },
    backend: tf.getBackend(), versions: packageVersions(), startedAt: new Date(started).toISOString(), seconds: (Date.now() - started) / 1000, rows, notes,
  };
}
