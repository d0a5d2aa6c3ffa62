import { predictLogits } from '@mia/core';
import { signalsFromLogits, type ModelSignals } from '@mia/attacks';
import { deserializeClassifier } from '@mia/models';
import type { PlannedUnit, RunPlan } from '../plan/plan-run';
import type { ArtifactStore } from '../store/artifact-store';
import { contentHash } from '../store/canonical-hash';
import { toBytes, toFloats } from '../store/float-bytes';

/**
 * The target's signals on the population examples (RMIA's z, docs/protocol.md §3.9), from the cache
 * or computed with the target's cached model and cached under their own key (the target's key and
 * the examples), so adding RMIA to a finished run retrains nothing.
 * @param population - Dataset indices of the population (`RunReferences.population`).
 * @throws Error when the target itself is not in the store (train it first).
 */
export async function targetPopulationSignals(
  plan: RunPlan,
  unit: PlannedUnit,
  population: readonly number[],
  store: ArtifactStore,
  onLog?: (line: string) => void,
): Promise<ModelSignals> {
  const { config, data } = plan;
  const { defense } = unit;
  const { numClasses } = data.dataset;
  const labels = Int32Array.from(population, (i) => data.dataset.y[i]!);
  const target = unit.key;
  const key = contentHash({ kind: 'population-logits-1', unit: target, examples: contentHash(population) });
  const cached = await store.read(key);
  const bytes = cached?.files.get('population.logits');
  if (bytes !== undefined) return signalsFromLogits(toFloats(bytes), labels, numClasses);
  const entry = await store.read(target);
  const modelBytes = entry?.files.get('model.bin');
  if (modelBytes === undefined)
    throw new Error(
      `targetPopulationSignals: the target model of ${defense.label ?? defense.name} is not in the store (${target.slice(0, 12)}); train it first`,
    );
  const model = deserializeClassifier(modelBytes);
  try {
    const t = predictLogits(model, data.dataset, { indices: population });
    const logits = Float32Array.from(t.dataSync() as Float32Array);
    t.dispose();
    await store.write(key, { 'population.logits': toBytes(logits) }, { kind: 'population-logits', unit: target, config: config.name });
    onLog?.(`queried    ${defense.label ?? defense.name}/target on ${population.length} population examples (${key.slice(0, 12)})`);
    return signalsFromLogits(logits, labels, numClasses);
  } finally {
    model.dispose();
  }
}
