import { InvalidArgumentError, predictLogits } from '@mia/core';
import { signalsFromLogits, type SplitSignals } from '@mia/attacks';
import { serializeClassifier, type ModelClassifier } from '@mia/models';
import type { ArtifactEntry, ArtifactStore, WriteOutcome } from '../store/artifact-store';
import { toBytes } from '../store/float-bytes';
import type { ExperimentConfig } from '../schema/run-schema';
import type { UnitLogits } from '../defenses/definition';
import type { PreparedData } from '../data/prepare-data';
import type { TrainableUnit, UnitRun } from './trainable-unit';

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

/** A run's view of one unit: the unit of the plan, its run, and its logits and cache entry writer. @internal */
export interface UnitScope {
  readonly config: ExperimentConfig;
  readonly data: PreparedData;
  readonly store: ArtifactStore;
  readonly unit: TrainableUnit;
  readonly onLog?: ((line: string) => void) | undefined;
  /** The logits `model` releases on the unit's members and non-members. */
  logitsOf(model: ModelClassifier): UnitLogits;
  /**
   * Writes a unit's cache entry: the model, the logits it releases, (target with a validation slice)
   * the model's own logits on that slice and what the defense recorded while training
   * (`'existing'`: another process's copy was there first and is kept).
   */
  write(key: string, model: ModelClassifier, logits: UnitLogits, label: string, seconds: number, extra?: UnitExtras): Promise<WriteOutcome>;
  /** The model's logits on {@link validationIdx}, or undefined without a validation slice. */
  validationLogitsOf(model: ModelClassifier): Float32Array | undefined;
}

/** The scope of one unit of a run. @internal */
export function unitScope(run: UnitRun, unit: TrainableUnit, onLog?: (line: string) => void): UnitScope {
  const { config, data, store } = run;
  const { memberIdx, nonMemberIdx, validationIdx, role } = unit;
  const logitsAt = (model: ModelClassifier, indices: readonly number[]) => {
    const t = predictLogits(model, data.dataset, { indices });
    const values = Float32Array.from(t.dataSync() as Float32Array);
    t.dispose();
    return values;
  };
  const validationLogitsOf = (model: ModelClassifier) => (validationIdx === undefined ? undefined : logitsAt(model, validationIdx));
  return {
    config,
    data,
    store,
    unit,
    onLog,
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

/** A unit's signals from its logits (and validation logits and recorded metrics). @internal */
export function signalsOf(scope: UnitScope, logits: UnitLogits, cache: 'hit' | 'miss', seconds: number, extra: UnitExtras = {}): UnitSignals {
  const { dataset } = scope.data;
  const labels = (idx: readonly number[]) => Int32Array.from(idx, (i) => dataset.y[i]!);
  const signals: UnitSignals = {
    members: signalsFromLogits(logits.members, labels(scope.unit.memberIdx), dataset.numClasses),
    nonMembers: signalsFromLogits(logits.nonMembers, labels(scope.unit.nonMemberIdx), dataset.numClasses),
    cache,
    seconds,
  };
  if (extra.validation !== undefined && scope.unit.validationIdx !== undefined)
    signals.validationAccuracy = top1Accuracy(extra.validation, labels(scope.unit.validationIdx), dataset.numClasses);
  if (extra.metrics !== undefined) signals.metrics = extra.metrics;
  return signals;
}

/** The training metrics stored in a unit's manifest, if any. */
export const metricsOf = (entry: ArtifactEntry): Readonly<Record<string, unknown>> | undefined => {
  const m = entry.manifest.meta.metrics;
  return typeof m === 'object' && m !== null ? (m as Record<string, unknown>) : undefined;
};
