import { MiaError } from '@mia/core';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ArtifactStore } from '../store/artifact-store';
import { checkedRunConfig } from '../config/run-config';
import type { ExperimentResults } from '../run/results';
import type { ExperimentConfig } from '../schema/run-schema';
import { writeReproductionReport } from './reproduction-report';
import { settleOutputSet } from '../report/output-set';
import { checkPlannedRun, configDifferences, reproductionPlan, unrunPlannedRuns } from './run-plan';
import { runSeeds } from './seeds';
import type { StoredReproductionResult } from './stored-reproduction';
import {
  CURRENT_VERDICT_RULES,
  isNotRun,
  type PlannedRun,
  type Reproduction,
  type ReproductionContext,
  type ReproductionOutput,
  type ReproductionResult,
  type RunOutcome,
} from './types';

/** The error a re-decided (replayed) reproduction throws when it needs a trained model, which `results.json` does not hold. */
export class NeedsTrainedModelsError extends MiaError {}

/** The error a replayed run throws when its stored results were measured with another config than the reproduction asks for now. */
export class ConfigChangedError extends MiaError {}

/** Options of {@link redecideReproduction}. */
export interface RedecideOptions {
  /**
   * A directory written by `mia reproduce` (or `runReproduction`): `reproduction.json` and
   * `runs/<id>/results.json` per experiment. Its `reproduction.json` and reports are rewritten.
   */
  readonly dir: string;
  readonly onLog?: (line: string) => void;
  /** Where cached evaluations are read from (some reproductions cache per-model evaluations). @default none: a reproduction that reads the store throws NeedsTrainedModelsError */
  readonly store?: ArtifactStore;
}

const readJson = async <T>(path: string, what: string): Promise<T> => {
  // An interrupted write of the directory's outputs is completed first: what is read is one set.
  await settleOutputSet(dirname(path));
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new MiaError(`redecide: ${what} must exist at ${path}, got ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new MiaError(`redecide: ${what} at ${path} must be JSON, got a parse error (${(error as Error).message})`);
  }
};

const noStore = (): never => {
  throw new NeedsTrainedModelsError(
    'replay: this reproduction reads the artifact store (trained models or their evaluations), which a replay without a store does not have',
  );
};

/** What a replay returns: the reproduction's output on its stored runs, the stored result it replays, and the runs' notes. */
interface Replayed {
  readonly previous: StoredReproductionResult;
  readonly output: ReproductionOutput;
  readonly notes: readonly string[];
}

/**
 * The stored outcome of run `id`, checked against the config the reproduction asks for now: its
 * `results.json` (or the stored NotRun), read once per id.
 * @throws ConfigChangedError naming the run when it was not stored or was measured with another config.
 */
function storedRuns(reproduction: Reproduction, previous: StoredReproductionResult, dir: string) {
  const read = new Map<string, Promise<RunOutcome>>();
  const rerun = `re-run it: mia reproduce ${reproduction.name} --scale ${previous.scale}`;
  const check = async (id: string, config: ExperimentConfig): Promise<RunOutcome> => {
    const recorded = previous.runs[id];
    if (recorded === undefined)
      throw new ConfigChangedError(
        `redecide: ${reproduction.name} asks for run ${JSON.stringify(id)}, which the stored reproduction does not have (it was measured with another plan, e.g. fewer training seeds); ${rerun}`,
      );
    if (isNotRun(recorded)) return recorded;
    const results = await readJson<ExperimentResults>(join(dir, 'runs', id, 'results.json'), `the stored results of run ${JSON.stringify(id)}`);
    // The stored config as this version reads it (defaults of options added since filled in).
    try {
      await checkedRunConfig(results.config, { remote: false });
    } catch (error) {
      throw new ConfigChangedError(
        `redecide: the stored config of run ${JSON.stringify(id)} of ${reproduction.name} is no longer valid (${(error as Error).message}); ${rerun}`,
      );
    }
    const differs = await configDifferences(results.config, { ...config, scale: previous.scale });
    if (differs.length > 0)
      throw new ConfigChangedError(
        `redecide: run ${JSON.stringify(id)} of ${reproduction.name} was measured with another config than the reproduction asks for now (differs in ${differs.join(', ')}); ${rerun}`,
      );
    return results;
  };
  return (id: string, config: ExperimentConfig): Promise<RunOutcome> => {
    let pending = read.get(id);
    if (pending === undefined) {
      pending = check(id, config);
      read.set(id, pending);
    }
    return pending;
  };
}

/**
 * Compares every run of the reproduction's plan with the stored runs before the reproduction starts
 * (so before any model is loaded): each planned run must be stored with the config planned now
 * (a run of a seed group whose dataset was not available may be missing), and every stored run must
 * be planned.
 * @throws ConfigChangedError naming the first run that differs, is missing or is no longer planned.
 */
async function checkPlanAgainstStored(
  reproduction: Reproduction,
  plan: ReadonlyMap<string, PlannedRun>,
  previous: StoredReproductionResult,
  stored: (id: string, config: ExperimentConfig) => Promise<RunOutcome>,
): Promise<void> {
  const ran = new Map(Object.entries(previous.runs).map(([id, r]) => [id, isNotRun(r) ? ('not run' as const) : ('ran' as const)]));
  const missing = new Set(unrunPlannedRuns(plan, ran));
  for (const run of plan.values()) {
    if (!ran.has(run.id) && !missing.has(run.id)) continue; // a later seed of a group that did not run
    await stored(run.id, run.config);
  }
  const unplanned = Object.keys(previous.runs).filter((id) => !plan.has(id));
  if (unplanned.length > 0)
    throw new ConfigChangedError(
      `redecide: the stored reproduction of ${reproduction.name} has run${unplanned.length > 1 ? 's' : ''} ${unplanned.map((id) => JSON.stringify(id)).join(', ')}, which its current plan does not list (it was measured with another plan, e.g. more training seeds); re-run it: mia reproduce ${reproduction.name} --scale ${previous.scale}`,
    );
}

async function replay(reproduction: Reproduction, options: RedecideOptions): Promise<Replayed> {
  const previous = await readJson<StoredReproductionResult>(join(options.dir, 'reproduction.json'), 'reproduction.json');
  if (previous.name !== reproduction.name)
    throw new MiaError(`redecide: ${join(options.dir, 'reproduction.json')} must be a result of ${reproduction.name}, got one of ${previous.name}`);
  const log = options.onLog ?? (() => undefined);
  const notes = new Set<string>();
  const used = new Set<string>();
  const stored = storedRuns(reproduction, previous, options.dir);
  // Every planned run's config first: a run the reproduction reaches only after loading a model
  // (which a replay cannot) is checked too.
  const plan = await reproductionPlan(reproduction, { scale: previous.scale });
  if (plan !== undefined) await checkPlanAgainstStored(reproduction, plan, previous, stored);
  const ctx: ReproductionContext = {
    scale: previous.scale,
    store: options.store ?? ({ read: noStore, write: noStore, list: noStore, verify: noStore, remove: noStore } as unknown as ArtifactStore),
    log,
    async run(id, config): Promise<RunOutcome> {
      if (used.has(id)) throw new MiaError(`${reproduction.name}: run id ${JSON.stringify(id)} used twice`);
      used.add(id);
      await checkPlannedRun(reproduction, plan, id, config, previous.scale);
      const results = await stored(id, config);
      if (isNotRun(results)) return results;
      for (const note of results.notes) notes.add(note);
      for (const warning of results.warnings ?? []) notes.add(`Warning, run ${id}: ${warning}`);
      log(`[${id}] stored results (${results.seconds.toFixed(0)} s when measured)`);
      return results;
    },
    runSeeds: (id, config, k, seedOptions) => runSeeds((i, c) => ctx.run(i, c), id, config, k, seedOptions),
    async loadModel() {
      throw new NeedsTrainedModelsError(
        `redecide: ${reproduction.name} needs its trained models (ctx.loadModel), which stored results do not hold; re-run it: mia reproduce ${reproduction.name} --scale ${previous.scale}${plan === undefined ? ' (it declares no plan(), so only the runs before its first model load were compared with the stored ones: a reproduction that loads models must declare one)' : ''}`,
      );
    },
  };
  log(`redecide  ${reproduction.name} (scale ${previous.scale}) on the results stored in ${options.dir}`);
  const output = await reproduction.run(ctx);
  const notRun = Object.entries(previous.runs)
    .filter(([, r]) => isNotRun(r))
    .map(([id]) => id);
  if (notRun.length > 0) notes.add(`Not run here (dataset not available; point --data-dir at the files to run them): ${notRun.join(', ')}.`);
  return { previous, output, notes: [...notes] };
}

/**
 * A reproduction's output (tables, claims, figures) rebuilt from the results stored in `options.dir`
 * instead of training ({@link redecideReproduction} without writing anything).
 * @throws NeedsTrainedModelsError when the reproduction needs trained models; ConfigChangedError when a stored run's config differs from the one asked for now.
 */
export async function replayReproduction(reproduction: Reproduction, options: RedecideOptions): Promise<ReproductionOutput> {
  return (await replay(reproduction, options)).output;
}

/**
 * Decides a reproduction's claims again, under the verdict rules of this version, on the numbers it
 * measured before: its tables and claims are rebuilt from the stored `runs/<id>/results.json`
 * instead of training (docs/protocol.md §5.1). Nothing is measured anew, so the tables must come
 * out as before; only the decisions can change. Each stored run must have been run with exactly the
 * config the reproduction asks for now (compared after defaults are filled in); a reproduction
 * whose configs changed since, or that needs its trained models (`ctx.loadModel`: sensitivities,
 * influence, gradients), cannot be re-decided and must be re-run. The original run's time, backend
 * and versions are kept; `decidedAt` records when the claims were decided. Writes
 * `reproduction.json`, `report.md` and `report.html` in `options.dir` (atomically).
 * @throws ConfigChangedError naming the run and what differs when a stored run does not match the config; NeedsTrainedModelsError as {@link replayReproduction}.
 */
export async function redecideReproduction(reproduction: Reproduction, options: RedecideOptions): Promise<ReproductionResult> {
  const { previous, output, notes } = await replay(reproduction, options);
  const result: ReproductionResult = {
    ...previous,
    tables: output.tables,
    claims: output.claims,
    ...(output.figures === undefined ? {} : { figures: output.figures }),
    notes: [...notes, ...(output.notes ?? [])],
    decidedAt: new Date().toISOString(),
    verdictRules: CURRENT_VERDICT_RULES,
  };
  await writeReproductionReport(result, options.dir);
  return result;
}
