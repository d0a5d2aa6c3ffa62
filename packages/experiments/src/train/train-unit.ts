import { deriveSeed, subsetData } from '@mia/core';
import { createModel, type ModelClassifier } from '@mia/models';
import type { ArtifactEntry, ArtifactStore } from '../store/artifact-store';
import { toFloats } from '../store/float-bytes';
import type { DefenseTrainContext } from '../defenses/definition';
import { getDefense, registeredDefenses } from '../defenses/registry';
import { trainBaseUnit } from './train-base';
import { underClaim } from '../store/under-claim';
import { validationMonitor } from './validation-monitor';
import { trainingAugmentation } from '../defenses/training-augmentation';
import { metricsOf, signalsOf, unitScope, type UnitExtras, type UnitScope, type UnitSignals } from './unit-scope';

export { top1Accuracy, type UnitExtras, type UnitScope, type UnitSignals } from './unit-scope';
export type { TrainableUnit, UnitRun } from './trainable-unit';
import type { TrainableUnit, UnitRun } from './trainable-unit';

/** Options shared by the in-thread and worker-thread paths. */
export interface TrainUnitOptions {
  readonly signal?: AbortSignal;
  readonly onLog?: (line: string) => void;
  /**
   * This run trained the unit already (a placement put it into the store): read from the store, its
   * signals say `cache: 'miss'` and no "cache hit" line is logged.
   */
  readonly trainedHere?: boolean;
}

/**
 * Trains (or loads from the cache) one target or shadow model and returns its signals on its members
 * and non-members. With a store that has claims, two processes never train the same unit: the second
 * waits and reads the first's entry. A corrupted entry is reported (`onLog`) and retrained.
 */
export async function trainUnit(unit: TrainableUnit, run: UnitRun, options: TrainUnitOptions): Promise<UnitSignals> {
  const { store } = run;
  const scope = unitScope(run, unit, options.onLog);
  const { key, label } = unit;
  const fromEntry = (entry: ArtifactEntry, how: string): UnitSignals => {
    if (options.trainedHere !== true) options.onLog?.(`cache hit  ${label} (${key.slice(0, 12)}${how})`);
    const logits = { members: toFloats(entry.files.get('members.logits')!), nonMembers: toFloats(entry.files.get('non-members.logits')!) };
    const validation = entry.files.get('validation.logits');
    return signalsOf(scope, logits, options.trainedHere === true ? 'miss' : 'hit', Number(entry.manifest.meta.seconds ?? 0), {
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
  return underClaim(store, key, label, options, load, () => trainAndCache(scope, options, fromEntry));
}

/** Trains a unit that is not in the cache and writes its entry (or, when another process wrote it first, reads that). */
async function trainAndCache(scope: UnitScope, options: TrainUnitOptions, fromEntry: (entry: ArtifactEntry, how: string) => UnitSignals): Promise<UnitSignals> {
  const { config, data, store, unit } = scope;
  const { defense, key, label, seed } = unit;
  options.onLog?.(`training   ${label} (${unit.memberIdx.length} members)`);
  const started = Date.now();
  const definition = getDefense(defense.name);
  const defenseOptions = definition.schema.parse(defense.params, `defense ${defense.name}`);
  const modelOptions = {
    ...config.model.options,
    ...definition.modelOptions?.(defenseOptions, registeredDefenses),
    numClasses: data.dataset.numClasses,
    inputShape: [...data.dataset.inputShape],
  };
  let initCount = 0;
  let metrics: Record<string, unknown> | undefined;
  const monitor =
    unit.validationIdx === undefined || unit.validationIdx.length === 0
      ? undefined
      : validationMonitor(subsetData(data.dataset, unit.validationIdx), {
          log: (line) => options.onLog?.(`${label}: ${line}`),
          keepBest: config.training.checkpoint === 'best-validation',
        });
  let model = createModel(config.model.name, { ...modelOptions, seed: deriveSeed(seed, 'init') });
  try {
    const inferenceIdx = unit.inferenceIdx;
    const ctx: DefenseTrainContext<unknown> = {
      model,
      members: subsetData(data.dataset, unit.memberIdx),
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
      monitors: monitor === undefined ? undefined : [monitor.plugin],
      augment: trainingAugmentation(config.training),
    };
    const replacement = await definition.train(ctx);
    if (monitor !== undefined && monitor.curve.length > 0) metrics = { ...metrics, validationCurve: [...monitor.curve] };
    if (config.training.checkpoint === 'best-validation' && monitor !== undefined) {
      // docs/protocol.md A11: the target keeps its best-validation epoch (the watched model only).
      const epoch = replacement === undefined ? monitor.restoreBest(model) : undefined;
      if (epoch === undefined) {
        // Nothing already trained is thrown away: the unit keeps its last epoch and says so in its metrics.
        metrics = { ...metrics, checkpoint: `last: defense ${defense.name} returned a model the runner's monitors did not watch` };
        options.onLog?.(
          `${label}: warning: training.checkpoint "best-validation" does not apply to defense ${defense.name} (it returns its own model); kept the last epoch`,
        );
      } else {
        metrics = { ...metrics, checkpoint: 'best-validation', checkpointEpoch: epoch };
        options.onLog?.(`${label}: kept epoch ${epoch} (best validation accuracy ${(100 * monitor.curve[epoch - 1]!).toFixed(1)} %)`);
      }
    }
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
    monitor?.dispose();
    model.dispose();
  }
}
