import { resolve } from 'node:path';
import type { ExperimentConfig } from '../schema/run-schema';
import type { ArtifactStore } from '../store/artifact-store';
import type { RunPlan } from '../plan/plan-run';
import { importReferences } from '../references/reference-import';
import { trainReferences, type RunReferences } from '../references/reference-signals';
import type { TrainUnitOptions } from '../train/train-unit';
import type { ReferencesSummary } from './results';

/**
 * The run's reference models (the config's `references`), once per run for every defense: trained
 * as units without the defense (or read from the cache), or imported from a directory in Carlini et
 * al.'s layout; `undefined` without `references`.
 * @param trainedHere - keys of the units this run trained (their models say trained, not cached).
 */
export async function runReferences(
  plan: RunPlan,
  store: ArtifactStore,
  options: TrainUnitOptions,
  trainedHere: ReadonlySet<string>,
): Promise<RunReferences | undefined> {
  const references = plan.config.references;
  if (references === undefined) return undefined;
  if (references.import !== undefined) {
    const imported = await importReferences(resolve(references.import), plan.data);
    options.onLog?.(`imported   ${imported.models.length} reference models from ${references.import}`);
    return imported;
  }
  return trainReferences(plan, store, options, trainedHere);
}

/** What a run's results say about its reference models: how many, how drawn, and what they cost. */
export function referencesSummary(config: ExperimentConfig, references: RunReferences): ReferencesSummary {
  const trained = references.cache.filter((c) => c === 'miss').length;
  return {
    count: references.models.length,
    ...(config.references?.import === undefined ? { scheme: config.references?.scheme ?? 'carlini' } : { imported: config.references.import }),
    auditExamples: references.auditSize,
    populationExamples: references.populationSize,
    seconds: [...references.seconds],
    trainedInThisRun: trained,
  };
}
