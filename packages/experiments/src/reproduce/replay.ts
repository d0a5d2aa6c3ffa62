import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidArgumentError, MiaError } from '@mia/core';
import type { ArtifactStore } from '../artifact-store';
import type { ExperimentResults } from '../results';
import { isNotRun, type ReproductionContext, type ReproductionOutput, type ReproductionResult, type ReproductionScale, type Reproduction } from './types';

/** The error a replayed reproduction throws when it needs a trained model (not in `results.json`). */
export class NeedsTrainedModelsError extends MiaError {}

/** Options of {@link replayContext}. */
export interface ReplayOptions {
  /** A reproduction's output directory: `<dir>/reproduction.json` and `<dir>/runs/<id>/results.json`. */
  readonly dir: string;
  readonly scale: ReproductionScale;
  readonly log?: (line: string) => void;
}

const noStore = (): never => {
  throw new NeedsTrainedModelsError('replayContext: this reproduction reads the artifact store (trained models), which a replay does not have');
};

/**
 * A {@link ReproductionContext} that answers `run(id, …)` with the committed `runs/<id>/results.json`
 * of a reproduction's output directory (or the run's recorded "not run" reason) instead of training —
 * so a reproduction whose claims are a function of its runs' results can be re-decided under the
 * current verdict rules (docs/protocol.md §5.1) without compute. `loadModel` and the store throw
 * {@link NeedsTrainedModelsError}: a reproduction that measures trained models itself (white-box
 * attacks, sensitivities, its own attack protocol) cannot be replayed.
 * @throws InvalidArgumentError when `dir` has no `reproduction.json`.
 */
export function replayContext(options: ReplayOptions): ReproductionContext {
  const file = join(options.dir, 'reproduction.json');
  if (!existsSync(file)) throw new InvalidArgumentError(`replayContext: options.dir must hold a reproduction.json, got ${JSON.stringify(options.dir)}`);
  const recorded = JSON.parse(readFileSync(file, 'utf8')) as ReproductionResult;
  const store = { read: noStore, write: noStore, list: noStore, verify: noStore, remove: noStore } as unknown as ArtifactStore;
  return {
    scale: options.scale,
    store,
    log: options.log ?? (() => {}),
    async run(id) {
      const results = join(options.dir, 'runs', id, 'results.json');
      if (existsSync(results)) return JSON.parse(readFileSync(results, 'utf8')) as ExperimentResults;
      const run = recorded.runs[id];
      if (run !== undefined && isNotRun(run)) return run;
      throw new InvalidArgumentError(
        `replayContext: run ${JSON.stringify(id)} has no results.json under ${JSON.stringify(join(options.dir, 'runs'))} and no recorded "not run" reason`,
      );
    },
    async loadModel(config, label) {
      throw new NeedsTrainedModelsError(
        `replayContext: ${JSON.stringify(label)} of ${config.name} is a trained model; this reproduction measures models itself and cannot be re-decided from results.json`,
      );
    },
  };
}

/**
 * Re-decides a reproduction's claims from its committed output directory ({@link replayContext}):
 * the output of `reproduction.run` on the replayed runs.
 * @throws NeedsTrainedModelsError when the reproduction needs trained models.
 */
export async function replayReproduction(reproduction: Reproduction, options: ReplayOptions): Promise<ReproductionOutput> {
  return reproduction.run(replayContext(options));
}
