import type { Classifier } from '@mia/core';
import { labelOracle, type LabelOracle, type ModelSignals } from '@mia/attacks';
import { deserializeClassifier } from '@mia/models';
import type { DefensePlan, PlannedUnit, RunPlan } from '../plan/plan-run';
import { referenceExamples } from '../plan/reference-membership';
import type { ArtifactStore } from '../store/artifact-store';
import { attackConfigOf } from '../schema/run-schema';
import type { AttackRecords } from './definition';
import { targetPopulationSignals } from './population-signals';
import { findAttack } from './registry';

/** Whether an attack of the run needs {@link AttackRecords} (`needs.records` or `needs.labelQueries`). */
export function runNeedsRecords(plan: RunPlan): boolean {
  return plan.config.attacks.some((entry) => {
    const needs = findAttack(attackConfigOf(entry).name)?.needs;
    return needs?.records === true || needs?.labelQueries === true;
  });
}

/**
 * The {@link AttackRecords} of one defense of a run: its dataset and index sets, the target's
 * population signals (computed once, cached in the store like RMIA's), and label-only access to the
 * target and shadow models, each read from the store and deserialised once, on first use.
 * @returns The records and `dispose`, which frees the loaded models (call it after the attacks ran).
 */
export function attackRecords(
  plan: RunPlan,
  defense: DefensePlan,
  store: ArtifactStore,
  onLog?: (line: string) => void,
): { readonly records: AttackRecords; dispose(): void } {
  const { dataset, partition } = plan.data;
  const { population } = referenceExamples(partition.roles);
  const loaded = new Map<string, Promise<Classifier>>();
  let populationSignals: Promise<ModelSignals> | undefined;
  const load = (unit: PlannedUnit): Promise<Classifier> => {
    let model = loaded.get(unit.key);
    if (model === undefined) {
      model = store.read(unit.key).then((entry) => {
        const bytes = entry?.files.get('model.bin');
        if (bytes === undefined)
          throw new Error(`attackRecords: the ${unit.role} model of ${defense.label} is not in the store (${unit.key.slice(0, 12)}); train it first`);
        return deserializeClassifier(bytes);
      });
      loaded.set(unit.key, model);
    }
    return model;
  };
  const oracle = async (which: 'target' | number): Promise<LabelOracle> => {
    const unit = which === 'target' ? defense.target : defense.shadows[which];
    if (unit === undefined)
      throw new RangeError(`attackRecords.labelOracle: ${defense.label} has ${defense.shadows.length} shadow models, got shadow ${String(which)}`);
    return labelOracle(await load(unit));
  };
  const records: AttackRecords = {
    dataset,
    audit: [...defense.target.memberIdx, ...defense.target.nonMemberIdx],
    population,
    shadows: defense.shadows.map((unit) => ({ memberIdx: unit.memberIdx, nonMemberIdx: unit.nonMemberIdx })),
    targetPopulation: () => (populationSignals ??= targetPopulationSignals(plan, defense.target, population, store, onLog)),
    labelOracle: oracle,
  };
  return {
    records,
    dispose: () => {
      for (const model of loaded.values()) void model.then((m) => m.dispose()).catch(() => undefined);
      loaded.clear();
    },
  };
}
