import { toFloats } from '../store/float-bytes';
import { activeBackend, activePrecision } from '../train/backend-choice';
import { InvalidArgumentError, InvalidDatasetError, MiaError } from '@mia/core';
import { deserializeClassifier } from '@mia/models';
import { join } from 'node:path';
import { DirectoryArtifactStore, type ArtifactStore } from '../store/artifact-store';
import { defaultModelStore } from '../store/model-store';
import { expandGrid, type ExperimentConfig } from '../schema/run-schema';
import { prepareData, type PreparedData } from '../data/prepare-data';
import { runExperiment } from '../run/runner';
import { planRun } from '../plan/plan-run';
import { attackNeedsShadow } from '../attacks/registry';
import { WorkerSlots } from '../place/worker-pool';
import { choosePlacement, type UnitPlacement } from '../place/placement';
import { packageVersions } from '../store/versions';
import { writeReport } from '../report/write-report';
import { writeReproductionReport } from './reproduction-report';
import { runSeeds } from './seeds';
import { checkPlannedRun, PlanDriftError, reproductionPlan, unrunPlannedRuns } from './run-plan';
import {
  CURRENT_VERDICT_RULES,
  isNotRun,
  type LoadedUnit,
  type Reproduction,
  type ReproductionContext,
  type ReproductionResult,
  type ReproductionScale,
  type RunOutcome,
} from './types';

/** Options of {@link runReproduction}. */
export interface RunReproductionOptions {
  readonly scale: ReproductionScale;
  /** Output directory: `reproduction.json`, `report.md`, `report.html`, and `runs/<id>/` per experiment. */
  readonly out: string;
  readonly dataDir?: string;
  /** @default `$MIA_CACHE_DIR/models` or `~/.cache/mia/models` */
  readonly store?: ArtifactStore;
  /** Worker threads for the trainings of each run (0 = in this thread). */
  readonly workers?: number;
  /**
   * Trains each run's missing units elsewhere instead of in local threads, e.g. `queueTrainer` of
   * `mia reproduce --queue` (BullMQ workers that write into the same artifact store); the runs then
   * read every model from the store. With it (or with `workers` > 0) the training seeds of
   * `ctx.runSeeds` run concurrently, so the units of every seed are queued at once and the workers
   * stay busy while the attacks run.
   */
  readonly placement?: UnitPlacement;
  readonly signal?: AbortSignal;
  readonly onLog?: (line: string) => void;
}

/**
 * Runs a reproduction at a scale: its experiments (models cached by content, so tables that share a
 * model train it once), its tables with the paper's values beside ours, and its claims, then writes
 * `reproduction.json`, `report.md` and `report.html` into `options.out` (each atomically).
 * Experiments whose dataset is not available here are reported as "not run", never dropped.
 */
export async function runReproduction(reproduction: Reproduction, options: RunReproductionOptions): Promise<ReproductionResult> {
  const started = Date.now();
  const store = options.store ?? defaultModelStore();
  const log = options.onLog ?? (() => undefined);
  const runs: Record<string, ReproductionResult['runs'][string]> = {};
  const notes = new Set<string>();
  const notRunReasons = new Map<string, string>();
  const prepared = new Map<string, PreparedData>();
  // Local worker threads: `workers` slots shared by the runs. A run's units start as slots free up, in
  // the order the runs ask, so the last unit of one run and the first of the next train side by side;
  // runs whose models are done attack on this thread meanwhile. With it (or a queue) the training
  // seeds of `runSeeds` start together, so seed j's attacks overlap seed j + 1's training.
  const workers = options.workers ?? 0;
  const slots = workers > 0 && options.placement === undefined && store instanceof DirectoryArtifactStore ? new WorkerSlots(workers) : undefined;
  const placementOf = (id: string): UnitPlacement | undefined =>
    options.placement ??
    (slots === undefined
      ? undefined
      : choosePlacement(store, { workers, slots, dataDir: options.dataDir, signal: options.signal, onLog: (line) => log(`[${id}] ${line}`) }));
  const concurrentSeeds = options.placement !== undefined || slots !== undefined;
  // The reproduction's plan, every config validated before anything trains; each ctx.run is held to it.
  const plan = await reproductionPlan(reproduction, { scale: options.scale, ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }) });
  const ctx: ReproductionContext = {
    scale: options.scale,
    store,
    log,
    parallelRuns: concurrentSeeds,
    ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    async run(id: string, config: ExperimentConfig): Promise<RunOutcome> {
      if (id in runs) throw new MiaError(`${reproduction.name}: run id ${JSON.stringify(id)} used twice`);
      await checkPlannedRun(reproduction, plan, id, config, options.scale);
      let results;
      try {
        results = await runExperiment(
          { ...config, scale: options.scale },
          {
            store,
            onLog: (line) => log(`[${id}] ${line}`),
            ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
            ...(options.workers === undefined ? {} : { workers: options.workers }),
            ...(placementOf(id) === undefined ? {} : { placement: placementOf(id) }),
            ...(options.signal === undefined ? {} : { signal: options.signal }),
          },
        );
      } catch (error) {
        if (!InvalidDatasetError.isInstance(error)) throw error;
        const outcome = { notRun: `not run: dataset not available (${(error as Error).message})` };
        runs[id] = outcome;
        // The reason (what to download, where to point --data-dir) is logged once per run of the reproduction.
        const first = notRunReasons.get(outcome.notRun);
        log(first === undefined ? `[${id}] ${outcome.notRun}` : `[${id}] not run: dataset not available (as for ${first} above)`);
        if (first === undefined) notRunReasons.set(outcome.notRun, id);
        return outcome;
      }
      for (const note of results.notes) notes.add(note);
      for (const warning of results.warnings ?? []) notes.add(`Warning, run ${id}: ${warning}`);
      runs[id] = { dataset: results.dataset.name, source: results.dataset.source, seconds: results.seconds };
      // Without exposure.csv: every record's scores of every run would dwarf a reproduction's results
      // (its reports keep the 20 most exposed records per row); `mia run` writes it.
      const { perRecord: _records, ...stored } = results;
      await writeReport({ ...stored, command: `mia reproduce ${reproduction.name} --scale ${options.scale}` }, join(options.out, 'runs', id));
      return results;
    },
    runSeeds: (id, config, k, seedOptions = {}) => runSeeds((i, c) => ctx.run(i, c), id, config, k, { ...seedOptions, concurrent: concurrentSeeds }),
    async loadModel(config, defenseLabel, role = 'target'): Promise<LoadedUnit> {
      const expanded = expandGrid({ ...config, scale: options.scale });
      const defense = expanded.defenses.find((d) => (d.label ?? d.name) === defenseLabel);
      if (defense === undefined)
        throw new MiaError(
          `loadModel: defenseLabel must be one of ${expanded.defenses.map((d) => JSON.stringify(d.label ?? d.name)).join(', ')}, got ${JSON.stringify(defenseLabel)}`,
        );
      const cacheId = JSON.stringify([expanded.dataset, expanded.partition, expanded.seed]);
      let data = prepared.get(cacheId);
      if (data === undefined) {
        data = await prepareData(expanded, options.dataDir === undefined ? {} : { dataDir: options.dataDir });
        prepared.set(cacheId, data);
      }
      const row = planRun(expanded, data, attackNeedsShadow).defenses[expanded.defenses.indexOf(defense)]!;
      if (role === 'shadow' && row.shadows.length === 0)
        throw new MiaError(
          `loadModel: ${config.name} trains no shadow model (none of its attacks uses one: needs.shadow is false or it has no attacks), so role must be 'target', got 'shadow'`,
        );
      const unit = role === 'target' ? row.target : row.shadows[0]!;
      const entry = await store.read(unit.key);
      const bytes = entry?.files.get('model.bin');
      if (bytes === undefined)
        throw new MiaError(
          `loadModel: the ${role} model of ${JSON.stringify(defenseLabel)} in ${config.name} is not in the cache; call ctx.run on its config first`,
        );
      const released = { members: toFloats(entry!.files.get('members.logits')!), nonMembers: toFloats(entry!.files.get('non-members.logits')!) };
      return {
        model: deserializeClassifier(bytes),
        data,
        members: unit.memberIdx,
        nonMembers: unit.nonMemberIdx,
        ...(unit.inferenceIdx === undefined ? {} : { inference: unit.inferenceIdx }),
        released,
      };
    },
  };
  log(`reproduce  ${reproduction.name} at scale ${options.scale}: ${reproduction.title}`);
  const output = await reproduction.run(ctx);
  if (plan !== undefined) {
    const unrun = unrunPlannedRuns(plan, new Map(Object.entries(runs).map(([id, r]) => [id, isNotRun(r) ? ('not run' as const) : ('ran' as const)])));
    if (unrun.length > 0)
      throw new PlanDriftError(
        `${reproduction.name}: its plan lists run${unrun.length > 1 ? 's' : ''} ${unrun.map((id) => JSON.stringify(id)).join(', ')}, which run() did not ask for; plan() must list exactly the runs run() asks for`,
      );
  }
  const notRun = Object.entries(runs)
    .filter(([, r]) => isNotRun(r))
    .map(([id]) => id);
  if (notRun.length > 0) notes.add(`Not run here (dataset not available; point --data-dir at the files to run them): ${notRun.join(', ')}.`);
  const result: ReproductionResult = {
    format: 'mia-reproduction-1',
    name: reproduction.name,
    paper: reproduction.paper,
    title: reproduction.title,
    source: reproduction.source,
    description: reproduction.description ?? '',
    scale: options.scale,
    backend: activeBackend(),
    precision: activePrecision(),
    versions: packageVersions(),
    startedAt: new Date(started).toISOString(),
    seconds: (Date.now() - started) / 1000,
    runs,
    tables: output.tables,
    claims: output.claims,
    ...(output.figures === undefined ? {} : { figures: output.figures }),
    notes: [...notes, ...(output.notes ?? [])],
    verdictRules: CURRENT_VERDICT_RULES,
  };
  await writeReproductionReport(result, options.out);
  return result;
}
