import { resolve } from 'node:path';
import type { ExperimentConfig } from '../schema/run-schema';
import type { PreparedData } from '../data/prepare-data';
import type { ArtifactStore } from '../store/artifact-store';
import { importReferences } from '../train/reference-import';
import { trainReferences, type RunReferences } from '../train/reference-signals';
import { REFERENCE_UNIT_INDEX } from '../train/run-units';
import type { TrainUnitOptions } from '../train/train-unit';
import type { ReferencesSummary } from './results';

/**
 * The run's reference models (the config's `references`), once per run for every defense: trained
 * as units without the defense (or read from the cache), or imported from a directory in Carlini et
 * al.'s layout; `undefined` without `references`.
 * @param trainedByWorkers - `<defenseIndex>:<role>` of the units the worker pool or the queue trained in this run.
 */
export async function runReferences(
  config: ExperimentConfig,
  data: PreparedData,
  store: ArtifactStore,
  options: TrainUnitOptions,
  trainedByWorkers: ReadonlySet<string>,
): Promise<RunReferences | undefined> {
  const references = config.references;
  if (references === undefined) return undefined;
  if (references.import !== undefined) {
    const imported = await importReferences(resolve(references.import), data);
    options.onLog?.(`imported   ${imported.models.length} reference models from ${references.import}`);
    return imported;
  }
  const prefix = `${REFERENCE_UNIT_INDEX}:`;
  const elsewhere = new Set([...trainedByWorkers].filter((u) => u.startsWith(prefix)).map((u) => u.slice(prefix.length)));
  return trainReferences(config, data, store, options, elsewhere);
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
